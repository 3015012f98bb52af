/**
 * Where each endpoint lives, relative to the base URL, as the contract's endpoint table says
 * (introspection and the key set are this server's choice, published in its metadata).
 */
export const PATHS = {
  authorizationServerMetadata: '/.well-known/oauth-authorization-server',
  openidConfiguration: '/.well-known/openid-configuration',
  protectedResourceMetadata: '/.well-known/oauth-protected-resource',
  registration: '/api/oauth/register',
  authorization: '/oauth/authorize',
  consent: '/oauth/consent',
  token: '/api/oauth/token',
  userinfo: '/api/oauth/userinfo',
  revocation: '/api/oauth/revoke',
  introspection: '/api/oauth/introspect',
  jwks: '/api/oauth/jwks',
  authMd: '/auth.md',
  openapi: '/openapi.json',
} as const;
