/**
 * What the executor needs from sign-in, and nothing more: the executor never learns how a token is
 * obtained, stored or refreshed. Sign-in satisfies this structurally; it may run a consent flow
 * inside `accessToken` when the granted scopes do not cover the request.
 *
 * Failures are thrown as `SchoolMcpError`s; the executor passes their code and hint through to the
 * tool result unchanged.
 */
export interface AccessTokenRequest {
  /** The operation's `security` alternatives: any one fully granted alternative authorises the call. */
  readonly scopeAlternatives: readonly (readonly string[])[];
  /** The alternative to ask for when none is granted yet (least privilege). */
  readonly requiredScopes: readonly string[];
  /** The MCP request's cancellation; a consent wait must end with it. */
  readonly signal?: AbortSignal;
}

export interface AccessTokenSource {
  accessToken(request: AccessTokenRequest): Promise<string>;
  /**
   * Called once when the API rejected `rejectedToken` with 401 `invalid_token` (RFC 6750 §3.1).
   * Returns a fresh token; concurrent callers with the same rejected token share one refresh.
   */
  refreshAfterRejection(rejectedToken: string, signal?: AbortSignal): Promise<string>;
}
