/**
 * What the endpoints of one authorization server share: its identity, settings and stores.
 */
import type { ClientRegistry } from './client-registry.js';
import type { GrantStore } from './grant-store.js';
import type { InteractionStore } from './interaction-store.js';
import type { AuthSettings } from './options.js';
import type { SigningKey } from './signing-key.js';

export interface AuthContext {
  /** The issuer identifier, the base URL without a trailing slash. */
  readonly issuer: string;
  /** The business API's resource identifier (RFC 8707). */
  readonly resource: string;
  readonly settings: AuthSettings;
  readonly clients: ClientRegistry;
  readonly grants: GrantStore;
  readonly interactions: InteractionStore;
  /** Generated on first use. */
  readonly signingKey: () => SigningKey;
}

/** The `iss` value put on authorization responses, honouring the fault knobs. */
export function responseIssuer(context: AuthContext): string | undefined {
  if (context.settings.faults.omitIssOnRedirect) return undefined;
  return context.settings.faults.wrongIssOnRedirect ?? context.issuer;
}
