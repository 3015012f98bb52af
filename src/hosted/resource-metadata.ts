/**
 * What an MCP client learns from the protected resource: its RFC 9728 metadata, and the
 * `WWW-Authenticate` challenge (RFC 6750 §3, RFC 9728 §5.1) on a request without a valid token.
 * Pure.
 */
import type { PublicUrl } from './public-url.js';

/** RFC 9728 §3.1: the metadata of `/mcp` sits at the well-known path with the resource's path appended. */
export function resourceMetadataPaths(publicUrl: PublicUrl): readonly string[] {
  const path = new URL(publicUrl.base).pathname.replace(/\/+$/, '');
  return [`/.well-known/oauth-protected-resource${path}/mcp`, `/.well-known/oauth-protected-resource${path}`];
}

function resourceMetadataUrl(publicUrl: PublicUrl): string {
  return `${new URL(publicUrl.base).origin}${resourceMetadataPaths(publicUrl)[0]}`;
}

export function buildResourceMetadata(publicUrl: PublicUrl, scopes: readonly string[]): Record<string, unknown> {
  return {
    resource: publicUrl.base,
    authorization_servers: [publicUrl.base],
    scopes_supported: [...scopes],
    bearer_methods_supported: ['header'],
    resource_name: 'school-mcp',
  };
}

export type TokenRefusal = 'missing' | 'invalid';

export function buildBearerChallenge(publicUrl: PublicUrl, refusal: TokenRefusal): string {
  const metadata = `resource_metadata="${resourceMetadataUrl(publicUrl)}"`;
  // RFC 6750 §3.1: a request that sent no token gets no error code.
  if (refusal === 'missing') return `Bearer ${metadata}`;
  return `Bearer error="invalid_token", error_description="the access token is unknown, expired, revoked or not for this server", ${metadata}`;
}
