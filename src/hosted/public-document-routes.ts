/**
 * The public documents: the protected resource metadata (RFC 9728), served here, and the
 * engine's metadata and JWKS, served by the engine; all are cached as HOST-42 says.
 * @see SECURITY.md HOST-42
 */
import type { ServerResponse } from 'node:http';
import { MCP_SCOPE } from './authorization-server.js';
import type { HostedRoute } from './hosted-route.js';
import { metadataCacheControl } from './metadata-cache.js';
import type { PublicUrl } from './public-url.js';
import type { HostedExchange, Step } from './request-steps.js';
import { resourceMetadataDocuments } from './resource-metadata.js';

type ResourceMetadataRoute = Extract<HostedRoute, { name: 'resource-metadata' }>;

export function serveResourceMetadata(publicUrl: PublicUrl): Step<HostedExchange<ResourceMetadataRoute>> {
  const documents = new Map(
    [...resourceMetadataDocuments(publicUrl, [MCP_SCOPE])].map(([path, document]) => [path, JSON.stringify(document)]),
  );
  return async ({ res, route }) => {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': metadataCacheControl(200) });
    res.end(documents.get(route.path));
  };
}

/** The engine sets its headers and lets Node write the head: the cache rule goes in as the status is known. */
export const cacheLikeMetadata: Step<HostedExchange> = ({ res }, next) => {
  cacheByStatus(res);
  return next();
};

function cacheByStatus(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((statusCode: number, ...rest: unknown[]) => {
    res.setHeader('cache-control', metadataCacheControl(statusCode));
    return writeHead(statusCode, ...rest);
  }) as ServerResponse['writeHead'];
}
