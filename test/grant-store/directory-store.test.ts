import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  holdingLock,
  openDirectoryStore,
  parseStoreKeys,
  type GrantStore,
  type StoreKeyring,
} from '../../src/grant-store/index.js';
import {
  expectFencedWrites,
  expectReplaceOnly,
  expectLockHeldOnce,
  expectLockRunsOut,
  expectOneCreatorWins,
  expectOneWinnerPerRound,
  expectRecordsKeptApart,
} from './support/store-contract.js';
import { recordFileName } from '../../src/grant-store/record-file-name.js';
import { sealRecord } from '../../src/grant-store/sealed-record.js';

const posix = process.platform !== 'win32';
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function keyring(...keys: Buffer[]): StoreKeyring {
  const parsed = parseStoreKeys(keys.map((bytes) => bytes.toString('base64')).join(' '));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.keyring;
}

interface Harness {
  store: GrantStore;
  dir: string;
  warnings: string[];
  clock: { now: number };
}

async function setUp(keys = keyring(randomBytes(32)), existingDir?: string): Promise<Harness> {
  const dir = existingDir ?? join(await mkdtemp(join(tmpdir(), 'school-mcp-store-')), 'store');
  if (existingDir === undefined) dirs.push(join(dir, '..'));
  const warnings: string[] = [];
  const clock = { now: 1_800_000_000 };
  const store = await openDirectoryStore({
    dir,
    keyring: keys,
    logger: { warn: (message) => warnings.push(message) },
    nowSeconds: () => clock.now,
  });
  return { store, dir, warnings, clock };
}

async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('the directory grant store', () => {
  it('keeps one record per name and namespace, replaced as a whole, removed on request', async () => {
    const { store } = await setUp();
    await expectRecordsKeptApart(store);
  });

  it('SCL-10 gives a lock to one holder among the stores on one directory, releases it to the next with a greater fence, and lets it run out', async () => {
    const keys = keyring(randomBytes(32));
    const first = await setUp(keys);
    const stores = [
      first.store,
      ...(await Promise.all([setUp(keys, first.dir), setUp(keys, first.dir)])).map((harness) => harness.store),
    ];
    await expectLockHeldOnce(stores[0]!, stores[1]!);
    await expectOneWinnerPerRound(stores);
    await expectLockRunsOut(stores[1]!, stores[2]!);
  });

  it('SCL-11 refuses a fenced write once a greater fence wrote, or over a removed record when told to replace only, and starts a lost fence counter above the fence the record carries', async () => {
    const keys = keyring(randomBytes(32));
    const first = await setUp(keys);
    const second = await setUp(keys, first.dir);
    await expectFencedWrites(first.store, second.store);
    await expectReplaceOnly(second.store);
    const lock = await first.store.lock('school-grant', 'usr_cleared', { ttlMs: 60_000 });
    for (let fence = 1; fence <= 40; fence += 1)
      expect(await first.store.writeFenced('school-grant', 'usr_cleared', { fence }, lock!.fence + fence)).toBe(true);
    await rm(join(first.dir, 'school-grant', `${recordFileName('usr_cleared')}.lock`), { recursive: true });
    const after = await second.store.lock('school-grant', 'usr_cleared', { ttlMs: 60_000 });
    expect(after!.fence).toBeGreaterThan(lock!.fence + 40);
    expect(await second.store.writeFenced('school-grant', 'usr_cleared', { fence: 'after' }, after!.fence)).toBe(true);
  });

  it('SCL-10 runs steps holding a lock one at a time across stores, and gives up with STORE_LOCK_TIMEOUT on a lock held past the wait', async () => {
    const keys = keyring(randomBytes(32));
    const first = await setUp(keys);
    const second = await setUp(keys, first.dir);
    const options = { ttlMs: 60_000, waitMs: 10_000, pollMs: 5 };
    let inside = 0;
    let most = 0;
    const step = (store: GrantStore) =>
      holdingLock(store, 'counter', 'shared', options, async (fence) => {
        inside += 1;
        most = Math.max(most, inside);
        const count = ((await store.read('counter', 'shared'))?.count as number | undefined) ?? 0;
        expect(await store.writeFenced('counter', 'shared', { count: count + 1 }, fence)).toBe(true);
        inside -= 1;
      });
    await Promise.all(Array.from({ length: 10 }, (_, index) => step(index % 2 === 0 ? first.store : second.store)));
    expect(most).toBe(1);
    expect(await first.store.read('counter', 'shared')).toEqual({ count: 10 });
    const held = await first.store.lock('counter', 'shared', { ttlMs: 60_000 });
    await expect(
      holdingLock(second.store, 'counter', 'shared', { ttlMs: 60_000, waitMs: 100, pollMs: 5 }, async () => 'ran'),
    ).rejects.toMatchObject({ code: 'STORE_LOCK_TIMEOUT' });
    await held!.release();
  });

  it('SCL-10 keeps a lock to its number files: nothing but fences in the lock directory, and few of them', async () => {
    const { store, dir } = await setUp();
    for (let round = 0; round < 40; round += 1)
      await (await store.lock('school-grant', 'usr_owner_ada', { ttlMs: 60_000 }))!.release();
    const entries = await readdir(join(dir, 'school-grant', `${recordFileName('usr_owner_ada')}.lock`));
    expect(entries.every((entry) => /^\d+$/.test(entry))).toBe(true);
    expect(entries.length).toBeLessThanOrEqual(17);
    expect(Math.max(...entries.map(Number))).toBe(40);
    expect(await store.sweep()).toBe(0);
  });

  it('HST-04 writes no record name and no value in the clear: names are hashed, values sealed', async () => {
    const { store, dir } = await setUp();
    const canary = `canary-${randomBytes(8).toString('hex')}`;
    await store.write('school-grant', 'usr_owner_ada', { access_token: canary });
    await store.write('client', `token-${canary}`, { refresh_token: canary });
    for (const file of await filesUnder(dir)) {
      expect(file).not.toContain('usr_owner_ada');
      expect(file).not.toContain(canary);
      expect(await readFile(file, 'utf8')).not.toContain(canary);
    }
    expect(await filesUnder(join(dir, 'school-grant'))).toEqual([
      join(dir, 'school-grant', recordFileName('usr_owner_ada')),
    ]);
  });

  it.skipIf(!posix)(
    'HST-02 makes the store and its namespaces 0700 and every record 0600, and tightens a loose record',
    async () => {
      const { store, dir, warnings } = await setUp();
      await store.write('school-grant', 'usr_owner_ada', { a: 1 });
      expect((await lstat(dir)).mode & 0o777).toBe(0o700);
      expect((await lstat(join(dir, 'school-grant'))).mode & 0o777).toBe(0o700);
      const file = join(dir, 'school-grant', recordFileName('usr_owner_ada'));
      expect((await lstat(file)).mode & 0o777).toBe(0o600);
      await chmod(file, 0o644);
      expect(await store.read('school-grant', 'usr_owner_ada')).toEqual({ a: 1 });
      expect((await lstat(file)).mode & 0o777).toBe(0o600);
      expect(warnings.join('\n')).toMatch(/readable by others/);
    },
  );

  it.skipIf(!posix)('HST-02 refuses a record that is a symbolic link, to read or to replace', async () => {
    const { store, dir } = await setUp();
    await store.write('school-grant', 'usr_owner_ada', { a: 1 });
    const target = join(dir, '..', 'elsewhere');
    await writeFile(target, 'outside the store');
    const file = join(dir, 'school-grant', recordFileName('usr_lecturer_grace'));
    await symlink(target, file);
    await expect(store.read('school-grant', 'usr_lecturer_grace')).rejects.toMatchObject({ code: 'STORE_UNSAFE' });
    await expect(store.write('school-grant', 'usr_lecturer_grace', { b: 2 })).rejects.toMatchObject({
      code: 'STORE_UNSAFE',
    });
    expect(await readFile(target, 'utf8')).toBe('outside the store');
  });

  it.skipIf(!posix)('HST-02 refuses a store directory that is a symbolic link', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'school-mcp-store-'));
    dirs.push(parent);
    await symlink(tmpdir(), join(parent, 'store'));
    await expect(setUp(undefined, join(parent, 'store'))).rejects.toMatchObject({ code: 'STORE_UNSAFE' });
  });

  it("HST-01 sets aside a record copied over another user's, and answers as if there were none", async () => {
    const { store, dir, warnings } = await setUp();
    await store.write('school-grant', 'usr_owner_ada', { who: 'ada' });
    await store.write('school-grant', 'usr_lecturer_grace', { who: 'grace' });
    const ada = join(dir, 'school-grant', recordFileName('usr_owner_ada'));
    const grace = join(dir, 'school-grant', recordFileName('usr_lecturer_grace'));
    await writeFile(grace, await readFile(ada));
    expect(await store.read('school-grant', 'usr_lecturer_grace')).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/set aside/);
    expect(await store.read('school-grant', 'usr_owner_ada')).toEqual({ who: 'ada' });
  });

  it('ST-17 sets aside a record whose seal opens but holds no record, and answers as if there were none', async () => {
    const keys = keyring(randomBytes(32));
    const { store, dir, warnings } = await setUp(keys);
    await store.write('school-grant', 'usr_owner_ada', { who: 'ada' });
    const file = join(dir, 'school-grant', recordFileName('usr_owner_ada'));
    const address = { namespace: 'school-grant', name: 'usr_owner_ada' };
    await writeFile(
      file,
      JSON.stringify(sealRecord(JSON.stringify({ value: ['ada'] }), address, undefined, keys.current)),
    );
    expect(await store.read('school-grant', 'usr_owner_ada')).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/set aside/);
    expect(warnings.join('\n')).not.toContain('ada');
  });

  it('HST-03 rotates: a record sealed with the old key opens while the old key is listed second, and is sealed again with the new one', async () => {
    const [older, newer] = [randomBytes(32), randomBytes(32)];
    const before = await setUp(keyring(older));
    await before.store.write('school-grant', 'usr_owner_ada', { who: 'ada' });
    const file = join(before.dir, 'school-grant', recordFileName('usr_owner_ada'));
    const olderId = keyring(older).current.id;
    expect(JSON.parse(await readFile(file, 'utf8')).keyId).toBe(olderId);

    const during = await setUp(keyring(newer, older), before.dir);
    expect(await during.store.read('school-grant', 'usr_owner_ada')).toEqual({ who: 'ada' });
    expect(JSON.parse(await readFile(file, 'utf8')).keyId).toBe(keyring(newer).current.id);

    const after = await setUp(keyring(newer), before.dir);
    expect(await after.store.read('school-grant', 'usr_owner_ada')).toEqual({ who: 'ada' });
  });

  it('HST-03 refuses, and keeps, a record whose key is no longer listed', async () => {
    const before = await setUp(keyring(randomBytes(32)));
    await before.store.write('school-grant', 'usr_owner_ada', { who: 'ada' });
    const lost = await setUp(keyring(randomBytes(32)), before.dir);
    await expect(lost.store.read('school-grant', 'usr_owner_ada')).rejects.toMatchObject({
      code: 'STORE_RECORD_UNREADABLE',
    });
    expect(await before.store.read('school-grant', 'usr_owner_ada')).toEqual({ who: 'ada' });
  });

  it('HST-05 never returns an expired record, and sweeps expired records away', async () => {
    const { store, dir, clock } = await setUp();
    await store.write('code', 'c1', { n: 1 }, { ttlSeconds: 60 });
    await store.write('code', 'c2', { n: 2 }, { ttlSeconds: 600 });
    await store.write('client', 'forever', { n: 3 });
    clock.now += 60;
    expect(await store.read('code', 'c1')).toBeUndefined();
    expect(await store.read('code', 'c2')).toEqual({ n: 2 });
    await store.write('code', 'c3', { n: 4 }, { ttlSeconds: 1 });
    clock.now += 600;
    expect(await store.sweep()).toBe(2);
    expect((await filesUnder(dir)).map((file) => file.slice(dir.length + 1).split('/')[0])).toEqual(['client']);
    expect(await store.read('client', 'forever')).toEqual({ n: 3 });
    await expect(store.write('code', 'c4', { n: 5 }, { ttlSeconds: 0 })).rejects.toThrow(RangeError);
  });

  it('HST-05 gives a record to one taker only, however many race for it', async () => {
    const { store } = await setUp();
    await store.write('code', 'once', { n: 1 }, { ttlSeconds: 60 });
    const results = await Promise.all(Array.from({ length: 8 }, () => store.take('code', 'once')));
    expect(results.filter((result) => result !== undefined)).toEqual([{ n: 1 }]);
    expect(await store.read('code', 'once')).toBeUndefined();
  });

  it('creates a record only where there is none: of racing creators one wins, and an expired record counts as none', async () => {
    const keys = keyring(randomBytes(32));
    const one = await setUp(keys);
    const two = await setUp(keys, one.dir);
    await expectOneCreatorWins([one.store, two.store]);
    await one.store.write('code', 'expiring', { n: 1 }, { ttlSeconds: 60 });
    expect(await one.store.writeIfAbsent('code', 'expiring', { n: 2 })).toBe(false);
    one.clock.now += 61;
    expect(await one.store.writeIfAbsent('code', 'expiring', { n: 3 })).toBe(true);
    expect(await one.store.read('code', 'expiring')).toEqual({ n: 3 });
    expect((await readdir(join(one.dir, 'code'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('shares nothing kept in the process: a second store on the same directory sees every write at once', async () => {
    const keys = keyring(randomBytes(32));
    const one = await setUp(keys);
    const two = await setUp(keys, one.dir);
    await one.store.write('school-grant', 'usr_owner_ada', { version: 1 });
    expect(await two.store.read('school-grant', 'usr_owner_ada')).toEqual({ version: 1 });
    await two.store.write('school-grant', 'usr_owner_ada', { version: 2 });
    expect(await one.store.read('school-grant', 'usr_owner_ada')).toEqual({ version: 2 });
    expect(await two.store.take('school-grant', 'usr_owner_ada')).toEqual({ version: 2 });
    expect(await one.store.read('school-grant', 'usr_owner_ada')).toBeUndefined();
  });

  it('answers ping while its directory is there, and fails it once the directory is gone', async () => {
    const { store, dir } = await setUp();
    await expect(store.ping()).resolves.toBeUndefined();
    await rm(dir, { recursive: true });
    await expect(store.ping()).rejects.toMatchObject({ code: 'STORE_UNSAFE' });
  });

  it('refuses namespaces that are not plain names', async () => {
    const { store } = await setUp();
    for (const namespace of ['..', 'a/b', '', 'Client', '.hidden']) {
      await expect(store.write(namespace, 'x', {})).rejects.toThrow(RangeError);
    }
  });
});
