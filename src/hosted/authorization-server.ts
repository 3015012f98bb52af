/**
 * school-mcp as the OAuth 2.1 authorization server of its MCP clients, on node-oidc-provider:
 * RFC 8414 metadata, RFC 7591 registration (https and loopback redirect URIs only), the
 * authorization code grant with PKCE S256 required, RFC 8707 resource indicators with the public
 * URL as the only audience and opaque access tokens, refresh tokens rotated on every use (RFC 9700
 * §4.14.2), and RFC 7009 revocation. Its screens are school-mcp's own (`interaction-page.ts`).
 * Client ID Metadata Documents, which node-oidc-provider 8.x does not know, come in through the
 * storage adapter: a URL client_id is looked up as its fetched document (`client-metadata-documents.ts`),
 * which the engine then validates as it does a registration.
 */
import Provider, { errors, type Adapter, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { checkClientRedirectUris, redirectUriAllowed, type ClientRedirectLists } from './client-redirect.js';
import { isUrlClientId } from './client-metadata-document.js';
import type { ProviderSecrets } from './provider-secrets.js';
import type { PublicUrl } from './public-url.js';
import { isOwnResource } from './resource-indicator.js';

/** The one scope an MCP client asks for: to use school-mcp's tools as the person who approved it. */
export const MCP_SCOPE = 'mcp';

export const HOSTED_PATHS = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  userinfo: '/oauth/userinfo',
  /** school-mcp's own consent page, one per authorization request. */
  consentPrefix: '/consent/',
} as const;

export interface HostedProviderOptions {
  readonly publicUrl: PublicUrl;
  /** The storage adapter, one class for every model (`storeAdapterClass`). */
  readonly adapter: new (model: string) => Adapter;
  readonly secrets: ProviderSecrets;
  /** Seconds; defaults suit a web client that signs in once a month. */
  readonly accessTokenTtl?: number;
  readonly refreshTokenTtl?: number;
  /**
   * A grant of this person ends (a refresh token revoked, a code or a rotated refresh token used
   * again): their school grant ends with it, before the engine answers.
   */
  readonly onGrantEnded: (sub: string) => Promise<void>;
}

export function createHostedProvider(options: HostedProviderOptions): Provider {
  const { publicUrl } = options;
  const configuration: Configuration = {
    adapter: options.adapter,
    routes: {
      authorization: HOSTED_PATHS.authorization,
      token: HOSTED_PATHS.token,
      registration: HOSTED_PATHS.registration,
      revocation: HOSTED_PATHS.revocation,
      jwks: HOSTED_PATHS.jwks,
      userinfo: HOSTED_PATHS.userinfo,
    },
    jwks: { keys: [options.secrets.signingJwk as never] },
    cookies: { keys: [...options.secrets.cookieKeys], long: { signed: true }, short: { signed: true } },
    clients: [],
    // draft-ietf-oauth-client-id-metadata-document: a URL client_id is accepted (store-adapter.ts).
    discovery: { client_id_metadata_document_supported: true },
    scopes: [MCP_SCOPE],
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    clientAuthMethods: ['none', 'client_secret_post', 'client_secret_basic'],
    pkce: { methods: ['S256'], required: () => true },
    ttl: {
      AccessToken: options.accessTokenTtl ?? 3600,
      AuthorizationCode: 60,
      RefreshToken: options.refreshTokenTtl ?? 30 * 24 * 3600,
      Interaction: 600,
      Session: 14 * 24 * 3600,
      Grant: 30 * 24 * 3600,
      IdToken: 600,
    },
    // Under the public URL's path, so that the redirect and the interaction cookie's path (the
    // engine takes it from this URL) carry it; on the host the browser came by.
    interactions: { url: (_ctx, interaction) => `${publicUrl.path}${HOSTED_PATHS.consentPrefix}${interaction.uid}` },
    async findAccount(_ctx, sub) {
      return { accountId: sub, claims: async () => ({ sub }) };
    },
    // Refresh tokens for every client that registered the grant, with or without offline_access:
    // MCP clients follow OAuth 2.1, not OpenID Connect Core §11.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => true,
    // Typed as synchronous, but its one caller (lib/helpers/revoke.js in 8.8.1) awaits it, so the
    // school grant is gone before the revocation or the reuse is answered.
    revokeGrantPolicy: (async (ctx: KoaContextWithOIDC) => {
      const { entities } = ctx.oidc;
      const token = entities.RefreshToken ?? entities.AccessToken ?? entities.AuthorizationCode;
      if (token?.accountId !== undefined) await options.onGrantEnded(token.accountId);
      return true;
    }) as unknown as Configuration['revokeGrantPolicy'],
    expiresWithSession: async () => false,
    extraClientMetadata: {
      // A property nobody sends: its validator sees every registration, where the redirect rule is
      // enforced. `post_logout_redirect_uris` is listed so that the engine keeps it for the validator
      // (it drops the field while RP-initiated logout is off) and the same rule refuses it (HOST-40).
      properties: ['school_mcp_redirect_policy', 'post_logout_redirect_uris'],
      validator(_ctx, key, _value, metadata) {
        if (key !== 'school_mcp_redirect_policy') return;
        const check = checkClientRedirectUris(metadata as ClientRedirectLists);
        // RFC 7591 §3.2.2: invalid_redirect_uri for redirect_uris, invalid_client_metadata for any
        // other field. The engine names the former from a description that starts with
        // "redirect_uris" (the reason does); its InvalidRedirectUri would drop the reason.
        if (!check.ok) throw new errors.InvalidClientMetadata(check.reason);
      },
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      // RP-initiated logout (OpenID Connect) is off (HOST-40): MCP clients end a connection by revoking
      // its refresh token (RFC 7009), and the logout endpoint only ends school-mcp's own browser
      // session, from a GET any page can trigger, before redirecting to a URI the client chose. It
      // would serve as an open redirector on this server's name and nothing else.
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => publicUrl.base,
        useGrantedResource: async () => true,
        // The public URL or the MCP endpoint, in any RFC 3986 spelling; every token gets the one
        // audience, the public URL, whichever the client named.
        async getResourceServerInfo(_ctx, indicator) {
          if (!isOwnResource(publicUrl, indicator))
            throw new errors.InvalidTarget(
              `this server issues tokens for ${publicUrl.base} (or ${publicUrl.mcpUrl}) only`,
            );
          return { scope: MCP_SCOPE, audience: publicUrl.base, accessTokenFormat: 'opaque' };
        },
      },
    },
    async renderError(ctx, out) {
      ctx.type = 'application/json';
      ctx.body = { error: out.error, error_description: out.error_description };
    },
  };
  const provider = new Provider(publicUrl.base, configuration);
  // RFC 8252 §7.3 for every registered client: the engine frees the loopback port only for
  // application_type native, which most MCP clients do not send.
  provider.Client.prototype.redirectUriAllowed = function (
    this: InstanceType<Provider['Client']>,
    value: string,
  ): boolean {
    return redirectUriAllowed(this.redirectUris ?? [], value, !isUrlClientId(this.clientId));
  };
  // The engine takes its scheme and host from X-Forwarded-Proto and X-Forwarded-Host, which the
  // hosted server always sets from the public URL, whatever a client sent (forwarded-request.ts, HOST-41).
  provider.proxy = true;
  return provider;
}
