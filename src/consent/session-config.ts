/**
 * What a sign-in session is configured with: the OAuth client's settings, how the user is
 * reached, and what consent may ask for. Checked once up front. Pure.
 */
import {
  isScopeToken,
  OAuthError,
  normalizeScopes,
  resolveClientConfig,
  type OAuthClientConfig,
  type ResolvedClientConfig,
} from '../oauth/index.js';
import { NO_DOCUMENT, refusedInReadOnly, type DocumentScopes, type ScopePolicy } from './consent-policy.js';
import type { ConsentPrompter } from './consent-prompter.js';

export interface SignInSessionConfig extends OAuthClientConfig {
  prompter: ConsentPrompter;
  /** Default: reads-first. */
  scopePolicy?: ScopePolicy;
  /** What the API document says about scopes; without it, reads-first asks only for what a call needs. */
  documentScopes?: DocumentScopes;
  /** Ask only for scopes that some read operation of the document accepts (AZ-08). */
  readOnly?: boolean;
}

export interface ResolvedSessionConfig extends ResolvedClientConfig {
  scopePolicy: ScopePolicy;
  documentScopes: DocumentScopes;
  readOnly: boolean;
}

export function resolveSessionConfig(config: SignInSessionConfig): ResolvedSessionConfig {
  const client = resolveClientConfig(config);
  const scopePolicy = config.scopePolicy ?? { mode: 'reads-first' };
  const documentScopes = config.documentScopes ?? NO_DOCUMENT;
  if (scopePolicy.mode === 'fixed') {
    const bad = scopePolicy.scopes.find((scope) => !isScopeToken(scope));
    if (bad !== undefined)
      throw new OAuthError('OAUTH_INVALID_CONFIG', `${JSON.stringify(bad)} is not a valid scope.`, {
        hint: 'List scopes separated by spaces or commas.',
      });
    const refused = config.readOnly ? refusedInReadOnly(scopePolicy.scopes, documentScopes) : [];
    if (refused.length > 0) {
      throw new OAuthError(
        'OAUTH_INVALID_CONFIG',
        `${refused.join(' ')} cannot be asked for in read-only mode: no read operation of the school's API accepts ${refused.length > 1 ? 'them' : 'it'}.`,
        { hint: 'Remove them from --scopes, or turn read-only mode off.' },
      );
    }
  }
  return {
    ...client,
    scopePolicy:
      scopePolicy.mode === 'fixed' ? { mode: 'fixed', scopes: normalizeScopes(scopePolicy.scopes) } : scopePolicy,
    documentScopes,
    readOnly: config.readOnly ?? false,
  };
}
