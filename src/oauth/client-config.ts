/**
 * What the OAuth client of one school is configured with, checked once up front. Pure.
 */
import type { Logger } from '../log.js';
import type { FetchLike } from '../network/index.js';
import { OAuthError } from './oauth-error.js';
import { parseSchoolUrl, type SchoolTarget } from './school-url.js';

export const DEFAULT_CONSENT_TIMEOUT_MS = 5 * 60_000;
const MAX_CONSENT_TIMEOUT_MS = 10 * 60_000;

export interface OAuthClientConfig {
  /** The school's base URL: https, or http on 127.0.0.1 or [::1] (the sandbox). */
  schoolUrl: URL;
  /** The directory of the token store (see `defaultConfigDir`). */
  storeDir: string;
  /** A pre-registered client; its secret, when given, is sent as `client_secret_post`. */
  clientId?: string;
  clientSecret?: string;
  /** A Client ID Metadata Document URL, used when the school advertises support for it. */
  clientMetadataUrl?: string;
  /** A fixed callback port; otherwise the registered one, or any free one. */
  callbackPort?: number;
  /** How long one consent attempt stays open (default 5 minutes, at most 10). */
  consentTimeoutMs?: number;
  logger: Logger;
  fetch?: FetchLike;
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** Test seam of the token store: runs before a written file replaces the record. */
  beforeStoreCommit?: (tempPath: string) => Promise<void> | void;
}

export interface ResolvedClientConfig {
  target: SchoolTarget;
  consentTimeoutMs: number;
  now: () => number;
}

export function resolveClientConfig(config: OAuthClientConfig): ResolvedClientConfig {
  const target = parseSchoolUrl(config.schoolUrl);
  const consentTimeoutMs = config.consentTimeoutMs ?? DEFAULT_CONSENT_TIMEOUT_MS;
  if (!Number.isFinite(consentTimeoutMs) || consentTimeoutMs <= 0 || consentTimeoutMs > MAX_CONSENT_TIMEOUT_MS) {
    throw new OAuthError('OAUTH_INVALID_CONFIG', 'The consent timeout must be between 1 ms and 10 minutes.', {
      hint: 'Choose a consent timeout of at most 10 minutes.',
    });
  }
  const port = config.callbackPort;
  if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535)) {
    throw new OAuthError('OAUTH_INVALID_CONFIG', `The callback port ${port} is not a valid port.`, {
      hint: 'Choose a callback port between 1 and 65535, or none.',
    });
  }
  if (config.clientSecret && !config.clientId) {
    throw new OAuthError('OAUTH_INVALID_CONFIG', 'A client secret was given without a client id.', {
      hint: 'Give the pre-registered client id together with its secret.',
    });
  }
  if (config.clientMetadataUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(config.clientMetadataUrl);
    } catch {
      url = undefined;
    }
    if (!url || url.protocol !== 'https:' || url.pathname === '/' || url.hash) {
      throw new OAuthError(
        'OAUTH_INVALID_CONFIG',
        'The client metadata document URL must be an https URL with a path.',
        { hint: 'Give the https URL where the client metadata document is published.' },
      );
    }
  }
  return { target, consentTimeoutMs, now: config.now ?? Date.now };
}
