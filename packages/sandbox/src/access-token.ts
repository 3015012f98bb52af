/**
 * What the business API needs to know about a bearer token, and nothing more. The authorization
 * server implements the verifier; the API asks it on every request.
 */
export interface AccessTokenInfo {
  readonly clientId: string;
  /** The signed-in school user. */
  readonly subject: string;
  readonly scopes: readonly string[];
  /** The RFC 8707 resource the token is bound to, when one was requested. */
  readonly resource: string | undefined;
  /** Seconds since the epoch. */
  readonly issuedAt: number;
  readonly expiresAt: number;
}

export interface AccessTokenVerifier {
  /** The token's grant when it is known, unexpired and unrevoked; otherwise `undefined`. */
  verifyAccessToken(token: string): AccessTokenInfo | undefined;
}
