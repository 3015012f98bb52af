/**
 * Which client this school-mcp signs in as: a pre-registered one (`--client-id`), a Client ID
 * Metadata Document the school accepts, or a registration of its own (RFC 7591), kept in the
 * store and reused while it fits (RG-03). Pure.
 */
import type { SchoolMetadata } from './discovery.js';
import { metadataDocumentClient, registrationFits } from './registration.js';
import type { StoredClient } from './store-record.js';

export interface ConfiguredClient {
  readonly clientId?: string | undefined;
  readonly clientSecret?: string | undefined;
  readonly clientMetadataUrl?: string | undefined;
}

/** Pure: the pre-registered client the configuration names, if any, as the store would keep it. */
export function staticClientOf(config: ConfiguredClient, now: number, redirectUri?: string): StoredClient | undefined {
  if (!config.clientId) return undefined;
  return {
    kind: 'static',
    clientId: config.clientId,
    ...(config.clientSecret ? { clientSecret: config.clientSecret } : {}),
    redirectUris: redirectUri ? [redirectUri] : [],
    registeredAt: now,
  };
}

/**
 * Pure: the client the configuration and the school fix, so that nothing is registered: a
 * pre-registered one first, then a metadata document (only once the school's metadata is known).
 */
export function fixedClientOf(
  config: ConfiguredClient,
  metadata: SchoolMetadata | undefined,
  now: number,
  redirectUri?: string,
): StoredClient | undefined {
  return (
    staticClientOf(config, now, redirectUri) ??
    (metadata ? metadataDocumentClient(metadata, config.clientMetadataUrl, now) : undefined)
  );
}

/** Pure: the client this session signs in as, given the fixed one and what the store holds. */
export function activeClientOf(
  fixed: StoredClient | undefined,
  stored: StoredClient | undefined,
): StoredClient | undefined {
  return fixed ?? stored;
}

/** Pure: the stored registration to use for `redirectUri`, or `undefined` when a new one is needed (RG-03). */
export function reusableRegistration(stored: StoredClient | undefined, redirectUri: string): StoredClient | undefined {
  return stored?.kind === 'dynamic' && registrationFits(stored, redirectUri) ? stored : undefined;
}

/**
 * Pure: the client a token of `clientId` is revoked as (RFC 7009 §2.1 authenticates the client
 * that obtained it), or `undefined` when the school offers no revocation endpoint or no known
 * client matches.
 */
export function revocationClientOf(
  clientId: string,
  known: readonly (StoredClient | undefined)[],
  revocationOffered: boolean,
): StoredClient | undefined {
  const candidate = known.find((stored) => stored?.clientId === clientId);
  return revocationOffered ? candidate : undefined;
}
