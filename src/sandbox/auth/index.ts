import type { AccessTokenVerifier } from '../access-token.js';
import type { Router } from '../http/router.js';

export interface AuthServerOptions {
  /** Approve every authorization request without showing the consent page (demo, headless tests). */
  autoApprove?: boolean;
}

export interface AuthorizationServer extends AccessTokenVerifier {
  mount(router: Router): void;
}

export interface AuthorizationServerConfig {
  /** The sandbox's origin, e.g. `http://127.0.0.1:54321`; also its issuer identifier. */
  baseUrl: string;
  /** The protected resource identifier (RFC 8707 / RFC 9728) of the business API. */
  resource: string;
  options: AuthServerOptions;
}

export function createAuthorizationServer(config: AuthorizationServerConfig): AuthorizationServer {
  void config;
  return {
    mount() {},
    verifyAccessToken: () => undefined,
  };
}
