/**
 * What a sign-in session is configured with, checked once up front. Pure.
 */
import type { Logger } from '../log.js';
import type { ConsentPrompter } from './consent-prompter.js';
import { OAuthError } from './oauth-error.js';
import { NO_DOCUMENT, refusedInReadOnly, type DocumentScopes, type ScopePolicy } from './consent-policy.js';
import { isScopeToken, normalizeScopes } from './scopes.js';
import type { FetchLike } from '../network/index.js';
import { parseSchoolUrl, type SchoolTarget } from './school-url.js';

export const DEFAULT_CONSENT_TIMEOUT_MS = 5 * 60_000;
export const MAX_CONSENT_TIMEOUT_MS = 10 * 60_000;

export interface OAuthSessionConfig {
  /** The school's base URL: https, or loopback http (the sandbox). */
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
  prompter: ConsentPrompter;
  /** How long one consent flow stays open (default 5 minutes, at most 10). */
  consentTimeoutMs?: number;
  /** Default: reads-first. */
  scopePolicy?: ScopePolicy;
  /** What the API document says about scopes; without it, reads-first asks only for what a call needs. */
  documentScopes?: DocumentScopes;
  /** Ask only for scopes that some read operation of the document accepts (AZ-08). */
  readOnly?: boolean;
  logger: Logger;
  fetch?: FetchLike;
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** Test seam of the token store: runs before a written file replaces the record. */
  beforeStoreCommit?: (tempPath: string) => Promise<void> | void;
}

export interface ResolvedSessionConfig {
  target: SchoolTarget;
  consentTimeoutMs: number;
  scopePolicy: ScopePolicy;
  documentScopes: DocumentScopes;
  readOnly: boolean;
  now: () => number;
}

function invalidConfig(message: string, hint: string): OAuthError {
  return new OAuthError('OAUTH_INVALID_CONFIG', message, { hint });
}

export function resolveSessionConfig(config: OAuthSessionConfig): ResolvedSessionConfig {
  const target = parseSchoolUrl(config.schoolUrl);
  const consentTimeoutMs = config.consentTimeoutMs ?? DEFAULT_CONSENT_TIMEOUT_MS;
  if (!Number.isFinite(consentTimeoutMs) || consentTimeoutMs <= 0 || consentTimeoutMs > MAX_CONSENT_TIMEOUT_MS) {
    throw invalidConfig('The consent timeout must be between 1 ms and 10 minutes.', 'Choose a consent timeout of at most 10 minutes.');
  }
  const port = config.callbackPort;
  if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535)) {
    throw invalidConfig(`The callback port ${port} is not a valid port.`, 'Choose a callback port between 1 and 65535, or none.');
  }
  if (config.clientSecret && !config.clientId) {
    throw invalidConfig('A client secret was given without a client id.', 'Give the pre-registered client id together with its secret.');
  }
  if (config.clientMetadataUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(config.clientMetadataUrl);
    } catch {
      url = undefined;
    }
    if (!url || url.protocol !== 'https:' || url.pathname === '/' || url.hash) {
      throw invalidConfig('The client metadata document URL must be an https URL with a path.', 'Give the https URL where the client metadata document is published.');
    }
  }
  const scopePolicy = config.scopePolicy ?? { mode: 'reads-first' };
  const documentScopes = config.documentScopes ?? NO_DOCUMENT;
  if (scopePolicy.mode === 'fixed') {
    const bad = scopePolicy.scopes.find((scope) => !isScopeToken(scope));
    if (bad !== undefined) throw invalidConfig(`${JSON.stringify(bad)} is not a valid scope.`, 'List scopes separated by spaces or commas.');
    const refused = config.readOnly ? refusedInReadOnly(scopePolicy.scopes, documentScopes) : [];
    if (refused.length > 0) {
      throw invalidConfig(`${refused.join(' ')} cannot be asked for in read-only mode: no read operation of the school's API accepts ${refused.length > 1 ? 'them' : 'it'}.`, 'Remove them from --scopes, or turn read-only mode off.');
    }
  }
  return {
    target,
    consentTimeoutMs,
    scopePolicy: scopePolicy.mode === 'fixed' ? { mode: 'fixed', scopes: normalizeScopes(scopePolicy.scopes) } : scopePolicy,
    documentScopes,
    readOnly: config.readOnly ?? false,
    now: config.now ?? Date.now,
  };
}
