import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  countStoreKeys,
  openDirectoryStore,
  readingUnreadableAsAbsent,
  type StoreKeyring,
} from '../../src/grant-store/index.js';
import {
  expectResealToFinishTheRotation,
  expectResealToLeaveNewerRecords,
  expectUnreadableRecordsCountedAndKept,
  keyring,
} from './support/rotation-contract.js';
import { recordFileName } from '../../src/grant-store/record-file-name.js';
import { sealRecord } from '../../src/grant-store/sealed-record.js';
import { standingOf, takeCensus } from '../../src/grant-store/key-census.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function storeDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'school-mcp-rotation-'));
  dirs.push(dir);
  return join(dir, 'store');
}

function openerOn(dir: string, warnings: string[] = []) {
  return (keys: StoreKeyring) =>
    openDirectoryStore({ dir, keyring: keys, logger: { warn: (message) => warnings.push(message) } });
}

describe('the decision to reseal a record', () => {
  const [a, b, c] = [randomBytes(32), randomBytes(32), randomBytes(32)];
  const keys = keyring(b, a);
  const sealedWith = (key: Buffer, expiresAt?: number) =>
    sealRecord('{"value":{}}', { namespace: 'n', name: 'x.rec' }, expiresAt, keyring(key).current);

  it('ST-12 reseals only a live record under an old key that is given', () => {
    expect(standingOf(sealedWith(b), keys, 100)).toEqual({ kind: 'current' });
    expect(standingOf(sealedWith(a), keys, 100)).toEqual({ kind: 'old', keyId: keyring(a).current.id });
    expect(standingOf(sealedWith(c), keys, 100)).toEqual({ kind: 'unknown-key', keyId: keyring(c).current.id });
    expect(standingOf(sealedWith(a, 100), keys, 100)).toEqual({ kind: 'expired' });
    expect(standingOf(sealedWith(a, 101), keys, 100)).toEqual({ kind: 'old', keyId: keyring(a).current.id });
    expect(standingOf(undefined, keys, 100)).toEqual({ kind: 'not-sealed' });
  });

  it('ST-13 counts records by key, the current key first, and what no key given reads by namespace', () => {
    const aId = keyring(a).current.id;
    const cId = keyring(c).current.id;
    const census = takeCensus(
      [
        { namespace: 'grants', standing: { kind: 'current' } },
        { namespace: 'grants', standing: { kind: 'old', keyId: aId } },
        { namespace: 'tokens', standing: { kind: 'old', keyId: aId }, damaged: true },
        { namespace: 'tokens', standing: { kind: 'unknown-key', keyId: cId } },
        { namespace: 'flows', standing: { kind: 'not-sealed' } },
        { namespace: 'flows', standing: { kind: 'expired' } },
      ],
      keys,
    );
    expect(census).toEqual({
      currentKeyId: keyring(b).current.id,
      keys: [
        { keyId: keyring(b).current.id, records: 1, current: true, given: true },
        { keyId: aId, records: 2, current: false, given: true },
        { keyId: cId, records: 1, current: false, given: false },
      ],
      underOldKeys: 1,
      unreadable: 3,
      unreadableByNamespace: { tokens: 2, flows: 1 },
      expired: 1,
    });
  });
});

describe('a key rotation on the directory store', () => {
  it('ST-12 HST-03 reseals every record under the old key with the new one, keeping expiry and fence, so the old key can go', async () => {
    await expectResealToFinishTheRotation(openerOn(await storeDir()));
  });

  it('ST-12 leaves a record rewritten or taken since the reseal read it as its writer left it', async () => {
    await expectResealToLeaveNewerRecords(openerOn(await storeDir()));
  });

  it('ST-13 counts records no key given opens, by namespace, and keeps them', async () => {
    await expectUnreadableRecordsCountedAndKept(openerOn(await storeDir()));
  });

  it('ST-13 counts a file that is not a sealed record, or whose seal does not open, as unreadable; skips temporary and set-aside files and linked namespaces', async () => {
    const dir = await storeDir();
    const keys = keyring(randomBytes(32));
    const store = await openerOn(dir)(keys);
    await store.write('school-grant', 'usr_ada', { who: 'ada' });
    await writeFile(join(dir, 'school-grant', recordFileName('usr_bo')), 'not a record', { mode: 0o600 });
    const moved = await readFile(join(dir, 'school-grant', recordFileName('usr_ada')), 'utf8');
    await writeFile(join(dir, 'school-grant', recordFileName('usr_cy')), moved, { mode: 0o600 });
    await writeFile(join(dir, 'school-grant', `${recordFileName('usr_dee')}.abc.tmp`), moved, { mode: 0o600 });
    await writeFile(join(dir, 'school-grant', `${recordFileName('usr_eve')}.damaged-1`), moved, { mode: 0o600 });
    // A namespace that is a link to another directory is not the store's.
    await symlink(join(dir, 'school-grant'), join(dir, 'linked-grant'));
    const report = await countStoreKeys(store.scan(), keys, () => Math.floor(Date.now() / 1000));
    expect(report.before).toMatchObject({ unreadable: 2, unreadableByNamespace: { 'school-grant': 2 } });
    expect(report.before.keys).toEqual([{ keyId: keys.current.id, records: 2, current: true, given: true }]);
  });
});

describe('records whose key is gone, read for a request', () => {
  it('ST-10 read and take as absent, warn once per namespace by name and key id, and stay where they are', async () => {
    const dir = await storeDir();
    const [lost, b] = [randomBytes(32), randomBytes(32)];
    const before = await openerOn(dir)(keyring(lost));
    await before.write('oidc-access-token', 'tok1', { n: 1 });
    await before.write('oidc-access-token', 'tok2', { n: 2 });
    await before.write('school-grant', 'usr_ada', { who: 'ada' });
    const warnings: { message: string; fields: unknown }[] = [];
    const raw = await openerOn(dir)(keyring(b));
    const store = readingUnreadableAsAbsent(raw, { warn: (message, fields) => warnings.push({ message, fields }) });

    await expect(raw.read('oidc-access-token', 'tok1')).rejects.toMatchObject({ code: 'STORE_RECORD_UNREADABLE' });
    expect(await store.read('oidc-access-token', 'tok1')).toBeUndefined();
    expect(await store.read('oidc-access-token', 'tok2')).toBeUndefined();
    expect(await store.read('school-grant', 'usr_ada')).toBeUndefined();
    expect(warnings.map((warning) => (warning.fields as { namespace: string }).namespace)).toEqual([
      'oidc-access-token',
      'school-grant',
    ]);
    expect(JSON.stringify(warnings)).toContain(keyring(lost).current.id);
    expect(JSON.stringify(warnings)).not.toMatch(/tok1|usr_ada|"who"/);

    // Kept for the key's return; replaced by the person's next sign-in.
    expect(await before.read('oidc-access-token', 'tok1')).toEqual({ n: 1 });
    await store.write('school-grant', 'usr_ada', { who: 'ada again' });
    expect(await store.read('school-grant', 'usr_ada')).toEqual({ who: 'ada again' });
    expect(await store.take('oidc-access-token', 'tok2')).toBeUndefined();
  });

  it('ST-10 passes every other failure on', async () => {
    const dir = await storeDir();
    const raw = await openerOn(dir)(keyring(randomBytes(32)));
    const store = readingUnreadableAsAbsent(raw, { warn: () => undefined });
    await expect(store.read('Not A Namespace', 'x')).rejects.toThrow(RangeError);
  });
});
