/**
 * A public URL with a path (`https://school.example/mcp-gw`): which request paths are the
 * server's, and where its authorization server metadata is published. Every route answers under
 * the path and nowhere else, except the well-known documents, which sit at the host's root with the
 * path appended (RFC 8414 §3.1, RFC 9728 §3.1). Pure.
 * @see SECURITY.md HOST-28
 */
import type { PublicUrl } from './public-url.js';

/** The engine's own discovery route, relative to the mount. */
export const ENGINE_DISCOVERY_PATH = '/.well-known/openid-configuration';

/**
 * The part of `path` under the mount (`/oauth/token` of `/mcp-gw/oauth/token`), or `undefined`
 * when the path is not under it (`/oauth/token`, `/mcp-gwx/oauth/token`).
 */
export function pathUnderMount(publicUrl: PublicUrl, path: string): string | undefined {
  if (publicUrl.path === '') return path;
  if (path === publicUrl.path) return '/';
  return path.startsWith(`${publicUrl.path}/`) ? path.slice(publicUrl.path.length) : undefined;
}

/**
 * Where clients look for the authorization server metadata of the issuer `{origin}{path}`, each
 * answered with the engine's document: RFC 8414 §3.1's `/.well-known/oauth-authorization-server{path}`,
 * OpenID Connect Discovery §4's `{path}/.well-known/openid-configuration`, and the path-inserted
 * `/.well-known/openid-configuration{path}` that MCP clients also try.
 */
export function authorizationServerMetadataPaths(publicUrl: PublicUrl): readonly string[] {
  return [
    ...new Set([
      `/.well-known/oauth-authorization-server${publicUrl.path}`,
      `${publicUrl.path}${ENGINE_DISCOVERY_PATH}`,
      `${ENGINE_DISCOVERY_PATH}${publicUrl.path}`,
    ]),
  ];
}
