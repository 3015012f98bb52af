/**
 * An authorization server the project did not write: node-oidc-provider (OpenID Certified),
 * configured the way the school's contract describes. Dynamic registration open to loopback
 * redirect URIs only (`invalid_redirect_uri` otherwise), PKCE S256 required, `iss` in the
 * authorization response (RFC 9207, always on in this engine), resource indicators (RFC 8707)
 * with opaque access tokens bound to the API, refresh tokens rotated on every use, revocation
 * (RFC 7009) and introspection (RFC 7662). Endpoints sit on the contract's paths.
 * The login and consent screens are ours (the engine leaves its UI to the host application):
 * see `engine-interaction.ts`.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

export const ENGINE_PATHS = {
  authorization: '/oauth/authorize',
  token: '/api/oauth/token',
  registration: '/api/oauth/register',
  revocation: '/api/oauth/revoke',
  introspection: '/api/oauth/introspect',
  userinfo: '/api/oauth/userinfo',
  jwks: '/api/oauth/jwks',
  end_session: '/oauth/logout',
} as const;

export const INTERACTION_PREFIX = '/interaction/';

/** The API's own client at the engine, for introspection (RFC 7662 §2.1 wants the caller authenticated). */
export const API_CLIENT = { id: 'school-api', secret: randomBytes(24).toString('base64url') };

export const API_SCOPES = ['courses:read', 'courses:write'] as const;

export interface EngineOptions {
  issuer: string;
  /** The RFC 8707 resource identifier of the API. */
  resource: string;
  /** Lifetime in seconds of the n-th access token issued for the API (n counts from 1). */
  accessTokenTtl(issued: number): number;
  /** Every successful token endpoint grant, by `grant_type`. */
  onGrant(grantType: string): void;
}

export function createEngine(options: EngineOptions): Provider {
  let issued = 0;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const configuration: Configuration = {
    routes: ENGINE_PATHS,
    jwks: {
      keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'engine-test', use: 'sig', alg: 'RS256' } as never],
    },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    clients: [
      {
        client_id: API_CLIENT.id,
        client_secret: API_CLIENT.secret,
        redirect_uris: [],
        response_types: [],
        grant_types: [],
      },
    ],
    claims: { openid: ['sub'], profile: ['name'], email: ['email'] },
    scopes: ['openid', 'profile', 'email'],
    responseTypes: ['code'],
    ttl: {
      // Asked once per access token; only the API's tokens are counted.
      AccessToken: (_ctx, token) => (token.resourceServer ? options.accessTokenTtl((issued += 1)) : 600),
      AuthorizationCode: 60,
      IdToken: 600,
      RefreshToken: 24 * 3600,
      Interaction: 600,
      Session: 24 * 3600,
      Grant: 24 * 3600,
    },
    pkce: { methods: ['S256'], required: () => true },
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PREFIX}${interaction.uid}` },
    async findAccount(_ctx, sub) {
      return { accountId: sub, claims: async () => ({ sub, name: 'Ada Teacher', email: 'ada@school.example' }) };
    },
    // The contract names the refresh_token grant and no offline_access scope; this engine's
    // default follows OpenID Connect Core §11 and issues refresh tokens only with offline_access.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    // Every refresh token is used once (RFC 9700 §4.14.2), whatever the client.
    rotateRefreshToken: () => true,
    extraClientMetadata: {
      // A property nobody sends: its validator sees every registration, which is what a
      // loopback-only policy needs (the engine itself would also take claimed https URIs).
      properties: ['loopback_only'],
      validator(ctx, _key, _value, metadata) {
        if (!ctx) return; // the API's own static client
        for (const uri of (metadata as { redirect_uris?: string[] }).redirect_uris ?? []) {
          const parsed = URL.canParse(uri) ? new URL(uri) : undefined;
          if (parsed?.protocol !== 'http:' || parsed.hostname !== '127.0.0.1') {
            throw new errors.InvalidRedirectUri();
          }
        }
      },
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      introspection: {
        enabled: true,
        // The API may ask about any token; a public client (the bridge) only about its own.
        allowedPolicy: async (ctx, client, token) =>
          client.clientAuthMethod !== 'none' || token.clientId === ctx.oidc.client?.clientId,
      },
      userinfo: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // No resource named: tokens for the API all the same (the only one here).
        defaultResource: async () => options.resource,
        useGrantedResource: async () => true,
        async getResourceServerInfo(_ctx, indicator) {
          if (indicator !== options.resource) throw new errors.InvalidTarget();
          return { scope: API_SCOPES.join(' '), audience: options.resource, accessTokenFormat: 'opaque' };
        },
      },
    },
    // Test output stays readable: the engine's own error pages are not needed here.
    renderError: async (ctx: KoaContextWithOIDC, out) => {
      ctx.type = 'application/json';
      ctx.body = out;
    },
  };
  const provider = new Provider(options.issuer, configuration);
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    const grantType = ctx.oidc.params?.['grant_type'];
    options.onGrant(typeof grantType === 'string' ? grantType : '');
  });
  return provider;
}
