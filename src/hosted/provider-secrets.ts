/**
 * The authorization server's own secrets: the keys that sign its cookies and the key in its
 * JWKS. Made once and kept in the grant store, so that every instance and every restart uses the
 * same ones (a cookie set by one instance opens on another). Instances that start together on an
 * empty store each make a set, but only one is created in the store and all use that one.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { SchoolMcpError } from '../errors.js';
import {
  isRecordUnreadable,
  isText,
  listOf,
  objectWith,
  oneOf,
  type Check,
  type GrantStore,
} from '../grant-store/index.js';

export interface ProviderSecrets {
  readonly cookieKeys: readonly string[];
  /** A private JWK (RS256) for the JWKS; school-mcp issues no ID tokens, but the engine needs one. */
  readonly signingJwk: Record<string, unknown>;
}

const NAMESPACE = 'hosted-secrets';
const NAME = 'authorization-server';

/**
 * The secrets as the store gives them back (ST-17): at least one cookie key, every one a string,
 * and a private RSA JWK, which the engine would otherwise refuse at start. A record that is not
 * is replaced, as before any secrets were made.
 */
const isSecrets = objectWith({
  cookieKeys: listOf(isText),
  signingJwk: objectWith({ kty: oneOf('RSA'), n: isText, e: isText, d: isText }),
});
const isProviderSecrets: Check<ProviderSecrets> = (value): value is ProviderSecrets =>
  isSecrets(value) && value.cookieKeys.length > 0;

let processSigningJwk: Record<string, unknown> | undefined;

/**
 * Made once per process: an RSA key costs 50 to 500 ms of CPU, and it signs nothing school-mcp
 * issues (its access tokens are opaque, it issues no ID tokens), so a process that opens several
 * stores, as tests do, need not make one per store. The cookie keys, which seal what matters and
 * from which the step-up state key is derived, are made per store.
 */
function engineSigningJwk(): Record<string, unknown> {
  processSigningJwk ??= (() => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      ...privateKey.export({ format: 'jwk' }),
      kid: `hosted-${randomBytes(6).toString('hex')}`,
      use: 'sig',
      alg: 'RS256',
    };
  })();
  return processSigningJwk;
}

function makeProviderSecrets(): ProviderSecrets {
  return { cookieKeys: [randomBytes(32).toString('base64url')], signingJwk: engineSigningJwk() };
}

/**
 * The secrets record sealed with a key no longer given: the start stops, naming the record, since
 * new secrets made in its place would silently end every browser sign-in under way, and every
 * instance still holding the old ones would disagree with this one (ST-11).
 */
function secretsUnreadable(cause: unknown): SchoolMcpError {
  return new SchoolMcpError(
    'STORE_RECORD_UNREADABLE',
    `The authorization server's own secrets record (${NAMESPACE}/${NAME}) in the grant store cannot be opened: ${cause instanceof Error ? cause.message : String(cause)}`,
    {
      cause,
      hint:
        'Put the key that sealed it back after the current one (SCHOOL_MCP_STORE_KEY="NEW,OLD"), start, and run `school-mcp store reseal` before dropping it. ' +
        "Or, with every instance stopped, run `school-mcp store reset-secrets` so that the next start makes new ones: browser sessions at school-mcp's pages end (sign-ins under way start over) and step-up links already sent stop working; MCP clients' tokens do not depend on them, but every record sealed with the lost key is read as absent, so its person signs in again.",
    },
  );
}

/** The secrets as stored; throws `secretsUnreadable` when their record does not open with the keys given. */
async function readSecrets(store: GrantStore): Promise<unknown> {
  try {
    return await store.read(NAMESPACE, NAME);
  } catch (error) {
    if (isRecordUnreadable(error)) throw secretsUnreadable(error);
    throw error;
  }
}

export type SecretsReset = 'removed' | 'readable' | 'absent';

/**
 * `school-mcp store reset-secrets`: removes the secrets record only when it cannot be opened with
 * the keys given, so that the next start makes new ones. A readable record is left alone: replacing
 * secrets that work would only end sign-ins under way (ST-11).
 */
export async function resetProviderSecrets(store: GrantStore): Promise<SecretsReset> {
  try {
    return (await store.read(NAMESPACE, NAME)) === undefined ? 'absent' : 'readable';
  } catch (error) {
    if (!isRecordUnreadable(error)) throw error;
  }
  await store.remove(NAMESPACE, NAME);
  return 'removed';
}

export async function loadProviderSecrets(store: GrantStore): Promise<ProviderSecrets> {
  const existing = await readSecrets(store);
  if (isProviderSecrets(existing)) return existing;
  const made = makeProviderSecrets();
  if (existing !== undefined) {
    // A record that is not a set of secrets is replaced; nothing could have used it.
    await store.write(NAMESPACE, NAME, { ...made });
    return made;
  }
  if (await store.writeIfAbsent(NAMESPACE, NAME, { ...made })) return made;
  // Another instance created them first: everyone uses that set.
  const winner = await readSecrets(store);
  return isProviderSecrets(winner) ? winner : loadProviderSecrets(store);
}
