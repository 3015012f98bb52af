/**
 * Which route of the hosted server a request takes, by its method and target alone, and the body
 * cap that goes with it (HOST-25). Every route answers under the public URL's path, except the
 * well-known documents at the host's root (HOST-28); the authorization server's routes are
 * everything else under the path, and the engine sees them at its own paths. Pure.
 * @see SECURITY.md HOST-25, HOST-28
 */
import { BODY_CAPS } from '../network/index.js';
import { HOSTED_PATHS, MCP_SCOPE } from './authorization-server.js';
import { authorizationServerMetadataPaths, ENGINE_DISCOVERY_PATH, pathUnderMount } from './mount-path.js';
import type { PublicUrl } from './public-url.js';
import { resourceMetadataDocuments } from './resource-metadata.js';

export type HostedRoute =
  /** `GET` of a protected resource metadata document (RFC 9728), by the path it is served at. */
  | { readonly name: 'resource-metadata'; readonly path: string }
  /** `/mcp`, any method: the MCP endpoint behind the bearer check. */
  | { readonly name: 'mcp' }
  | { readonly name: 'consent-page'; readonly uid: string }
  | { readonly name: 'consent-finish'; readonly uid: string }
  | { readonly name: 'step-up'; readonly id: string }
  | { readonly name: 'school-callback' }
  /** One of the routes above reached with a method it does not take. */
  | { readonly name: 'method-not-allowed'; readonly of: InteractionRouteName }
  /** The engine's public documents (its metadata and JWKS), which are cached like metadata (HOST-42). */
  | { readonly name: 'engine-document'; readonly url: string }
  /** `POST` to the open registration endpoint, bounded before the engine sees it (HOST-44). */
  | { readonly name: 'registration'; readonly url: string }
  /** The rest of the authorization server's routes; `url` is the target as the engine sees it. */
  | { readonly name: 'engine'; readonly url: string }
  /** Outside the public URL's path, where only the well-known documents are. */
  | { readonly name: 'not-found' };

export type HostedRouteName = HostedRoute['name'];

type InteractionRouteName = 'consent-page' | 'consent-finish' | 'step-up' | 'school-callback';

const CONSENT_PATH = /^\/consent\/([A-Za-z0-9_-]{1,100})(\/finish)?$/;
const STEP_UP_PATH = /^\/step-up\/([A-Za-z0-9_-]{1,100})$/;

/** The route of a request to the server at `publicUrl`, given its method and its request target. */
export function hostedRouter(publicUrl: PublicUrl): (method: string | undefined, target: string) => HostedRoute {
  const resourceMetadataPaths = new Set(resourceMetadataDocuments(publicUrl, [MCP_SCOPE]).keys());
  const serverMetadataPaths = new Set(authorizationServerMetadataPaths(publicUrl));
  // The engine's public documents, by the paths a client asks for (before the engine's own path).
  const engineDocumentPaths = new Set([...serverMetadataPaths, `${publicUrl.path}${HOSTED_PATHS.jwks}`]);
  const schoolCallbackPath = new URL(publicUrl.schoolCallback).pathname;

  return (method, target) => {
    const [path, query] = splitTarget(target);
    // The path below the public URL's; `undefined` outside it, where only well-known documents are.
    const local = pathUnderMount(publicUrl, path);
    if (method === 'GET' && resourceMetadataPaths.has(path)) return { name: 'resource-metadata', path };
    if (local === '/mcp') return { name: 'mcp' };
    const consent = local === undefined ? null : CONSENT_PATH.exec(local);
    if (consent !== null) {
      if (consent[2] !== undefined)
        return method === 'GET' ? { name: 'consent-finish', uid: consent[1]! } : notAllowed('consent-finish');
      return method === 'GET' || method === 'POST'
        ? { name: 'consent-page', uid: consent[1]! }
        : notAllowed('consent-page');
    }
    const stepUp = local === undefined ? null : STEP_UP_PATH.exec(local);
    if (stepUp !== null)
      return method === 'GET' || method === 'POST' ? { name: 'step-up', id: stepUp[1]! } : notAllowed('step-up');
    if (path === schoolCallbackPath)
      return method === 'GET' ? { name: 'school-callback' } : notAllowed('school-callback');
    // Every URL the engine publishes or redirects to carries the mount, which it learns as
    // `req.baseUrl` (as under Express): it sees its routes at their own paths.
    const engineTarget = serverMetadataPaths.has(path) ? ENGINE_DISCOVERY_PATH : local;
    if (engineTarget === undefined) return { name: 'not-found' };
    const url = `${engineTarget}${query}`;
    if (engineDocumentPaths.has(path)) return { name: 'engine-document', url };
    if (method === 'POST' && local === HOSTED_PATHS.registration) return { name: 'registration', url };
    return { name: 'engine', url };
  };
}

/** The most a request of this route may declare in `Content-Length` (HOST-25). */
export function bodyCapOf(route: HostedRoute): number {
  const name = route.name === 'method-not-allowed' ? route.of : route.name;
  if (name === 'mcp') return BODY_CAPS.mcpRequest;
  if (name === 'consent-page' || name === 'consent-finish' || name === 'step-up') return BODY_CAPS.consentForm;
  return BODY_CAPS.oauthRequest;
}

function notAllowed(of: InteractionRouteName): HostedRoute {
  return { name: 'method-not-allowed', of };
}

/** A request target's path and its query (with its `?`, or empty). */
function splitTarget(target: string): readonly [string, string] {
  const at = target.indexOf('?');
  return at === -1 ? [target, ''] : [target.slice(0, at), target.slice(at)];
}
