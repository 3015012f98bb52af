/**
 * What an MCP client learns from the protected resource: its RFC 9728 metadata, and the
 * `WWW-Authenticate` challenge (RFC 6750 §3, RFC 9728 §5.1) on a request without a valid token.
 * Pure.
 */
import type { PublicUrl } from './public-url.js';

/** RFC 9728 §3.1: the metadata of `/mcp` sits at the well-known path with the resource's path appended. */
function mcpMetadataPath(publicUrl: PublicUrl): string {
  return `/.well-known/oauth-protected-resource${publicUrl.path}/mcp`;
}

function resourceMetadataUrl(publicUrl: PublicUrl): string {
  return `${new URL(publicUrl.base).origin}${mcpMetadataPath(publicUrl)}`;
}

/**
 * Each metadata document by the path it is served at. RFC 9728 §3.3: the `resource` of a document
 * is the identifier its well-known URL was made from, and clients check that, so the document of
 * `/mcp` names the MCP endpoint and the one of the public URL names the public URL. Both are
 * accepted as resource indicators, and give tokens the one audience (`resource-indicator.ts`).
 */
export function resourceMetadataDocuments(
  publicUrl: PublicUrl,
  scopes: readonly string[],
): ReadonlyMap<string, Record<string, unknown>> {
  return new Map([
    [mcpMetadataPath(publicUrl), buildResourceMetadata(publicUrl, publicUrl.mcpUrl, scopes)],
    [
      `/.well-known/oauth-protected-resource${publicUrl.path}`,
      buildResourceMetadata(publicUrl, publicUrl.base, scopes),
    ],
  ]);
}

function buildResourceMetadata(
  publicUrl: PublicUrl,
  resource: string,
  scopes: readonly string[],
): Record<string, unknown> {
  return {
    resource,
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
