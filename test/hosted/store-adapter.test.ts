import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDirectoryStore, parseStoreKeys } from '../../src/grant-store/index.js';
import { namespaceOfModel, storeAdapterClass } from '../../src/hosted/store-adapter.js';
import { createLogger } from '../../src/log.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function adapters() {
  dir = await mkdtemp(join(tmpdir(), 'school-mcp-adapter-'));
  const keys = parseStoreKeys(randomBytes(32).toString('base64'));
  if (!keys.ok) throw new Error(keys.reason);
  const clock = { now: 1_800_000_000 };
  const store = await openDirectoryStore({ dir, keyring: keys.keyring, logger: createLogger({ write: () => {} }), nowSeconds: () => clock.now });
  const Adapter = storeAdapterClass(store, () => clock.now);
  return { clock, Adapter };
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
    await Promise.all([access.upsert('at-1', { grantId: 'g1' }, 3600), access.upsert('at-2', { grantId: 'g1' }, 3600), refresh.upsert('rt-1', { grantId: 'g1' }, 7200)]);
    await access.upsert('at-3', { grantId: 'g2' }, 3600);
    await access.revokeByGrantId!('g1');
    expect(await access.find('at-1')).toBeUndefined();
    expect(await access.find('at-2')).toBeUndefined();
    expect(await refresh.find('rt-1')).toBeUndefined();
    expect(await access.find('at-3')).toEqual({ grantId: 'g2' });
  });
});
