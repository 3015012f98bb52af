/**
 * What the server needs from sign-in for its own tools: who is signed in, and signing out. The
 * server never sees a token; the app wires the consent part's sign-in session to this.
 */
export interface AccountStatus {
  readonly signedIn: boolean;
  readonly issuer: string;
  readonly clientId: string | undefined;
  readonly user:
    | {
        readonly sub: string;
        readonly name?: string;
        readonly email?: string;
        readonly orgId?: string;
        readonly roles?: readonly string[];
      }
    | undefined;
  readonly scopes: readonly string[];
  /** Milliseconds since the epoch. */
  readonly expiresAt: number | undefined;
  /**
   * What the user does to sign in, when not signed in and the first tool call does not start it
   * (hosted mode: the connection's school grant ended, and only connecting again makes a new one).
   */
  readonly signInAdvice?: string;
}

export interface AccountService {
  status(): Promise<AccountStatus>;
  signOut(): Promise<{ readonly revoked: boolean; readonly message: string }>;
}
