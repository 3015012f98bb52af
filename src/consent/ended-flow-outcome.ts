/**
 * What a consent flow of another process left once it let go of the consent lock, from what the
 * token store shows. Pure.
 */
import { includesAll, scopesToCheck, type OAuthErrorCode, type TokenSet } from '../oauth/index.js';

/** The endings a waiting process passes on: the user's answer, or the school's. */
const PASSED_ON_FAILURES: readonly OAuthErrorCode[] = [
  'OAUTH_ACCESS_DENIED',
  'OAUTH_CONSENT_TIMEOUT',
  'OAUTH_AUTHORIZATION_FAILED',
  'OAUTH_CALLBACK_REJECTED',
];

/** Whether a failure another process left in the token file is one its waiters end with (ST-17: the file is read, not trusted). */
function isPassedOnFailure(code: string): code is OAuthErrorCode {
  return PASSED_ON_FAILURES.some((known) => known === code);
}

/** `tokens`, when they cover `scopes` (the baseline scopes aside); `undefined` otherwise. */
export function tokensCovering(tokens: TokenSet | undefined, scopes: readonly string[]): TokenSet | undefined {
  return tokens && includesAll(tokens.scopes, scopesToCheck(scopes)) ? tokens : undefined;
}

export interface EndedFlowView {
  /** The tokens in the store this session may use. */
  readonly usable: TokenSet | undefined;
  /** What this process wants. */
  readonly scopes: readonly string[];
  readonly lastFailure: { readonly code: string; readonly at: number } | undefined;
  /** When this process began to wait for the other one. */
  readonly since: number;
}

export type EndedFlowOutcome =
  | { readonly kind: 'tokens'; readonly tokens: TokenSet }
  | { readonly kind: 'failed'; readonly code: OAuthErrorCode }
  /** Nothing to use, not even a failure of that flow: a flow of this process's own is next. */
  | { readonly kind: 'nothing' };

export function endedFlowOutcome(view: EndedFlowView): EndedFlowOutcome {
  const tokens = tokensCovering(view.usable, view.scopes);
  if (tokens) return { kind: 'tokens', tokens };
  const failure = view.lastFailure;
  // A failure from before this process began to wait belongs to an earlier flow.
  if (failure && failure.at >= view.since && isPassedOnFailure(failure.code))
    return { kind: 'failed', code: failure.code };
  return { kind: 'nothing' };
}
