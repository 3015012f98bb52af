/**
 * The sandbox school's authorization server: discovery, registration, authorization with a
 * consent page, token, userinfo, revocation, introspection, keys and the agent walkthrough.
 */
import type { AccessTokenInfo, AccessTokenVerifier } from '../access-token.js';
import type { Router } from '../http/router.js';
import { renderAuthMd } from './auth-md.js';
import { handleAuthorize, handleConsentDecision } from './authorize.js';
import { ClientRegistry, type IntegrationCredentials, type IntegrationRequest } from './client-registry.js';
import type { AuthContext } from './context.js';
import { GrantStore, type GrantStats } from './grant-store.js';
import { handleIntrospection } from './introspect.js';
import { InteractionStore } from './interaction-store.js';
import { buildJwks } from './jwks.js';
import { buildAuthorizationServerMetadata, buildProtectedResourceMetadata } from './metadata.js';
import { resolveAuthSettings, type AuthServerOptions } from './options.js';
import { PATHS } from './paths.js';
import { handleRegistration } from './register.js';
import { documentResponse } from './responses.js';
import { handleRevocation } from './revoke.js';
import { lazySigningKey } from './signing-key.js';
import { handleToken } from './token.js';
import { handleUserInfo } from './userinfo.js';

export type { AuthFaultOptions, AuthServerOptions } from './options.js';
export { completeConsent, type ConsentDecision } from './consent-client.js';
export { obtainSandboxTokens, type SandboxTokens } from './token-client.js';
export { PATHS as AUTH_PATHS } from './paths.js';
export type { IntegrationCredentials, IntegrationRequest } from './client-registry.js';
export type { GrantStats } from './grant-store.js';

export interface AuthorizationServer extends AccessTokenVerifier {
  mount(router: Router): void;
  registerIntegration(request: IntegrationRequest): IntegrationCredentials;
  stats(): GrantStats;
}

export interface AuthorizationServerConfig {
  /** The sandbox's origin, e.g. `http://127.0.0.1:54321`; also its issuer identifier. */
  baseUrl: string;
  /** The protected resource identifier (RFC 8707 / RFC 9728) of the business API. */
  resource: string;
  options: AuthServerOptions;
}

export function createAuthorizationServer(config: AuthorizationServerConfig): AuthorizationServer {
  const issuer = config.baseUrl.replace(/\/+$/, '');
  const settings = resolveAuthSettings(config.options);
  const context: AuthContext = {
    issuer,
    resource: config.resource,
    settings,
    clients: new ClientRegistry(settings),
    grants: new GrantStore(settings, settings.nowSeconds),
    interactions: new InteractionStore(settings.nowSeconds),
    signingKey: lazySigningKey(),
  };
  const metadata = () => documentResponse(buildAuthorizationServerMetadata(issuer, settings.faults));

  return {
    mount(router) {
      router
        .add('GET', PATHS.authorizationServerMetadata, metadata)
        .add('GET', PATHS.openidConfiguration, metadata)
        .add('GET', PATHS.protectedResourceMetadata, () =>
          documentResponse(buildProtectedResourceMetadata(issuer, context.resource)),
        )
        .add('POST', PATHS.registration, handleRegistration(context.clients))
        .add('GET', PATHS.authorization, handleAuthorize(context))
        .add('POST', PATHS.consent, handleConsentDecision(context))
        .add('POST', PATHS.token, handleToken(context))
        .add('GET', PATHS.userinfo, handleUserInfo(context))
        .add('POST', PATHS.revocation, handleRevocation(context))
        .add('POST', PATHS.introspection, handleIntrospection(context))
        .add('GET', PATHS.jwks, () => documentResponse(buildJwks(context.signingKey())))
        .add(
          'GET',
          PATHS.authMd,
          () =>
            new Response(renderAuthMd(issuer, settings), {
              headers: { 'content-type': 'text/markdown; charset=utf-8' },
            }),
        );
    },

    registerIntegration: (request) => context.clients.registerIntegration(request),
    stats: () => context.grants.stats(),

    verifyAccessToken(token: string): AccessTokenInfo | undefined {
      const record = context.grants.activeAccessToken(token);
      if (!record) return undefined;
      return {
        clientId: record.family.clientId,
        subject: record.family.subject,
        scopes: record.scopes,
        resource: record.resource,
        issuedAt: record.issuedAt,
        expiresAt: record.expiresAt,
      };
    },
  };
}
