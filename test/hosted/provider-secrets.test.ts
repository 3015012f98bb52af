/** The authorization server's secrets per store: cookie keys of its own, the engine's unused signing key made once per process. */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDirectoryStore, parseStoreKeys, type GrantStore } from '../../src/grant-store/index.js';
import { loadProviderSecrets } from '../../src/hosted/provider-secrets.js';
import { createLogger } from '../../src/log.js';

const directories: string[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function freshStore(): Promise<GrantStore> {
  const dir = await mkdtemp(join(tmpdir(), 'school-mcp-secrets-'));
  directories.push(dir);
  const keys = parseStoreKeys(randomBytes(32).toString('base64'));
  if (!keys.ok) throw new Error(keys.reason);
  return openDirectoryStore({ dir, keyring: keys.keyring, logger: createLogger({ write: () => {} }) });
}

describe('the authorization server secrets', () => {
  it('gives each new store cookie keys of its own, and keeps them across loads', async () => {
    const [first, second] = [await freshStore(), await freshStore()];
    const made = await loadProviderSecrets(first);
    expect(made.cookieKeys[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await loadProviderSecrets(second)).cookieKeys).not.toEqual(made.cookieKeys);
    expect(await loadProviderSecrets(first)).toEqual(made);
  });

  it('makes the engine signing key, an RS256 private JWK, once per process for every store', async () => {
    const [first, second] = [await freshStore(), await freshStore()];
    const { signingJwk } = await loadProviderSecrets(first);
    expect(signingJwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', d: expect.any(String) });
    expect((await loadProviderSecrets(second)).signingJwk).toEqual(signingJwk);
  });
});
