import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDirectoryStore, parseStoreKeys } from '../../src/grant-store/index.js';
import { endGeneration, isCurrentGeneration } from '../../src/hosted/person-generation.js';
import { namespaceOfModel, storeAdapterClass, withMember } from '../../src/hosted/store-adapter.js';
import { createLogger } from '../../src/log.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Two instances' adapters, each on its own store object over one directory. */
async function twoInstancesAdapters() {
  dir = await mkdtemp(join(tmpdir(), 'school-mcp-adapter-'));
  const keys = parseStoreKeys(randomBytes(32).toString('base64'));
  if (!keys.ok) throw new Error(keys.reason);
  const open = async () => storeAdapterClass(await instanceStore(keys.keyring));
  return [await open(), await open()] as const;
}

/** One instance's own store object over the shared directory `dir`. */
function instanceStore(keyring: Parameters<typeof openDirectoryStore>[0]['keyring']) {
  return openDirectoryStore({ dir: dir!, keyring, logger: createLogger({ write: () => {} }) });
}

async function adapters() {
  dir = await mkdtemp(join(tmpdir(), 'school-mcp-adapter-'));
  const keys = parseStoreKeys(randomBytes(32).toString('base64'));
  if (!keys.ok) throw new Error(keys.reason);
  const clock = { now: 1_800_000_000 };
  const store = await openDirectoryStore({
    dir,
    keyring: keys.keyring,
    logger: createLogger({ write: () => {} }),
    nowSeconds: () => clock.now,
  });
  const Adapter = storeAdapterClass(store, () => clock.now);
  return { clock, Adapter, store };
}

describe("node-oidc-provider's adapter on the grant store", () => {
  it('names each model a store namespace', () => {
    expect(namespaceOfModel('AccessToken')).toBe('oidc-access-token');
    expect(namespaceOfModel('Client')).toBe('oidc-client');
    expect(namespaceOfModel('BackchannelAuthenticationRequest')).toBe('oidc-backchannel-authentication-request');
  });

  it('keeps a record for its lifetime, marks it consumed without extending it, and finds a session by uid', async () => {
    const { clock, Adapter } = await adapters();
    const codes = new Adapter('AuthorizationCode');
    await codes.upsert('code-1', { grantId: 'g1', accountId: 'usr_owner_ada' }, 60);
    expect(await codes.find('code-1')).toMatchObject({ accountId: 'usr_owner_ada' });
    await codes.consume('code-1');
    expect((await codes.find('code-1'))?.consumed).toBe(clock.now);
    clock.now += 60;
    expect(await codes.find('code-1')).toBeUndefined();

    const sessions = new Adapter('Session');
    await sessions.upsert('session-1', { uid: 'uid-1', accountId: 'usr_owner_ada' }, 3600);
    expect(await sessions.findByUid('uid-1')).toMatchObject({ accountId: 'usr_owner_ada' });
    expect(await sessions.findByUid('uid-2')).toBeUndefined();
  });

  it('HOST-08 revokes everything a grant issued, and nothing of another grant', async () => {
    const { Adapter } = await adapters();
    const [access, refresh] = [new Adapter('AccessToken'), new Adapter('RefreshToken')];
    await Promise.all([
      access.upsert('at-1', { grantId: 'g1' }, 3600),
      access.upsert('at-2', { grantId: 'g1' }, 3600),
      refresh.upsert('rt-1', { grantId: 'g1' }, 7200),
    ]);
    await access.upsert('at-3', { grantId: 'g2' }, 3600);
    await access.revokeByGrantId!('g1');
    expect(await access.find('at-1')).toBeUndefined();
    expect(await access.find('at-2')).toBeUndefined();
    expect(await refresh.find('rt-1')).toBeUndefined();
    expect(await access.find('at-3')).toEqual({ grantId: 'g2' });
  });

  it('keeps in the grant index every member that has not expired, for as long as its longest-lived member', () => {
    const first = withMember(undefined, { model: 'AccessToken', id: 'at-1', expiresAt: 1000 }, 500);
    expect(first).toEqual({ members: [{ model: 'AccessToken', id: 'at-1', expiresAt: 1000 }], expiresAt: 1000 });
    const second = withMember(first, { model: 'RefreshToken', id: 'rt-1', expiresAt: 5000 }, 600);
    expect(second.expiresAt).toBe(5000);
    const third = withMember(second, { model: 'AccessToken', id: 'at-2', expiresAt: 2000 }, 1500);
    expect(third).toEqual({
      members: [
        { model: 'RefreshToken', id: 'rt-1', expiresAt: 5000 },
        { model: 'AccessToken', id: 'at-2', expiresAt: 2000 },
      ],
      expiresAt: 5000,
    });
    expect(withMember(third, { model: 'RefreshToken', id: 'rt-forever' }, 1500).expiresAt).toBeUndefined();
  });

  it('SCL-14 loses no token of a grant that two instances issue at the same time, so revoking the grant ends every one', async () => {
    const [AdapterA, AdapterB] = await twoInstancesAdapters();
    const [onA, onB] = [new AdapterA('AccessToken'), new AdapterB('AccessToken')];
    const ids = Array.from({ length: 24 }, (_, index) => `at-${index}`);
    await Promise.all(ids.map((id, index) => (index % 2 === 0 ? onA : onB).upsert(id, { grantId: 'g-shared' }, 3600)));
    await new AdapterB('RefreshToken').upsert('rt-other', { grantId: 'g-other' }, 3600);
    await onB.revokeByGrantId!('g-shared');
    for (const id of ids) expect(await onA.find(id), id).toBeUndefined();
    expect(await new AdapterA('RefreshToken').find('rt-other')).toEqual({ grantId: 'g-other' });
  });

  it('HOST-33 stops finding every grant of a person once their sign-in ends, on every instance, and finds the grants made after it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'school-mcp-adapter-'));
    const keys = parseStoreKeys(randomBytes(32).toString('base64'));
    if (!keys.ok) throw new Error(keys.reason);
    const [storeA, storeB] = [await instanceStore(keys.keyring), await instanceStore(keys.keyring)];
    const [grantsA, grantsB] = [new (storeAdapterClass(storeA))('Grant'), new (storeAdapterClass(storeB))('Grant')];
    await grantsA.upsert('g-ada-1', { accountId: 'usr_owner_ada', clientId: 'inspector' }, 3600);
    await grantsB.upsert('g-ada-2', { accountId: 'usr_owner_ada', clientId: 'mcp-remote' }, 3600);
    await grantsA.upsert('g-grace', { accountId: 'usr_grace', clientId: 'inspector' }, 3600);
    expect(await grantsB.find('g-ada-1')).toMatchObject({ accountId: 'usr_owner_ada' });

    // Ada signs out on instance B: both her grants are gone on instance A too; Grace's stays.
    await endGeneration(storeB, 'usr_owner_ada');
    expect(await grantsA.find('g-ada-1')).toBeUndefined();
    expect(await grantsA.find('g-ada-2')).toBeUndefined();
    expect(await grantsA.find('g-grace')).toMatchObject({ accountId: 'usr_grace' });

    // Signed in again: the new grant works, the old ones stay ended, and saving an old one again does not revive it.
    await grantsA.upsert('g-ada-3', { accountId: 'usr_owner_ada', clientId: 'inspector' }, 3600);
    expect(await grantsB.find('g-ada-3')).toMatchObject({ clientId: 'inspector' });
    await grantsB.upsert('g-ada-1', { accountId: 'usr_owner_ada', clientId: 'inspector' }, 3600);
    expect(await grantsB.find('g-ada-1')).toBeUndefined();
  });

  it('HOST-33 judges a grant made in the same second as the end by the generation it was made in, not by the time', async () => {
    // The clock never moves: the grants before and after the end carry the same time.
    const { Adapter, store } = await adapters();
    const grants = new Adapter('Grant');
    await grants.upsert('g-before', { accountId: 'usr_owner_ada', clientId: 'inspector', iat: 1_800_000_000 }, 3600);
    await endGeneration(store, 'usr_owner_ada');
    await grants.upsert('g-after', { accountId: 'usr_owner_ada', clientId: 'inspector', iat: 1_800_000_000 }, 3600);
    expect(await grants.find('g-before')).toBeUndefined();
    expect(await grants.find('g-after')).toMatchObject({ iat: 1_800_000_000 });
  });

  it('HOST-33 compares generations, not times: a grant is current only when stamped with the generation now in force', () => {
    expect(isCurrentGeneration(undefined, '')).toBe(true);
    expect(isCurrentGeneration('', '')).toBe(true);
    expect(isCurrentGeneration(undefined, 'g2')).toBe(false);
    expect(isCurrentGeneration('g1', 'g2')).toBe(false);
    expect(isCurrentGeneration('g2', 'g2')).toBe(true);
  });
});
