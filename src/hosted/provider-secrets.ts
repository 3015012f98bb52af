/**
 * The authorization server's own secrets: the keys that sign its cookies and the key in its
 * JWKS. Made once and kept in the grant store, so that every instance and every restart uses the
 * same ones (a cookie set by one instance opens on another).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { GrantStore } from '../grant-store/index.js';

export interface ProviderSecrets {
  readonly cookieKeys: readonly string[];
  /** A private JWK (RS256) for the JWKS; school-mcp issues no ID tokens, but the engine needs one. */
  readonly signingJwk: Record<string, unknown>;
}

const NAMESPACE = 'hosted-secrets';
const NAME = 'authorization-server';

export async function loadProviderSecrets(store: GrantStore): Promise<ProviderSecrets> {
  const existing = (await store.read(NAMESPACE, NAME)) as ProviderSecrets | undefined;
  if (existing !== undefined && Array.isArray(existing.cookieKeys) && typeof existing.signingJwk === 'object') return existing;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const made: ProviderSecrets = {
    cookieKeys: [randomBytes(32).toString('base64url')],
    signingJwk: { ...privateKey.export({ format: 'jwk' }), kid: `hosted-${randomBytes(6).toString('hex')}`, use: 'sig', alg: 'RS256' },
  };
  await store.write(NAMESPACE, NAME, made as unknown as Record<string, unknown>);
  return made;
}
