/**
 * Discovery: RFC 8414 metadata through openid-client (`algorithm: 'oauth2'`), or OpenID Connect
 * discovery when the school publishes only that, then our own exact checks; RFC 9728 protected
 * resource metadata; OpenID discovery as a consistency check beside RFC 8414 metadata.
 */
import type * as client from 'openid-client';
import { loadOpenIdClient } from './openid-client-module.js';
import type { Logger } from '../log.js';
import { quotedText } from '../school-text/index.js';
import { OAuthError, isOAuthError } from './oauth-error.js';
import { mergeOpenIdConfiguration, validateResourceMetadata, validateServerMetadata } from './metadata.js';
import { toOAuthError } from './protocol-error.js';
import { wellKnownUrl, type SchoolTarget } from './school-url.js';
import type { FetchLike } from '../network/index.js';
import { describe } from './school-fetch.js';

export interface SchoolMetadata {
  issuer: string;
  server: client.ServerMetadata;
  /** RFC 8707 resource indicator for the school's API, identical on every request (AZ-05). */
  resource: string;
  /** Scopes the API advertises (RFC 9728 `scopes_supported`). */
  resourceScopes: string[];
}

/** Placeholder client id for the discovery-only configuration; never sent anywhere. */
const DISCOVERY_CLIENT_ID = 'school-mcp-discovery';

export async function discoverSchool(target: SchoolTarget, fetch: FetchLike, logger: Logger): Promise<SchoolMetadata> {
  const rfc8414 = await readServerMetadata(target, fetch, 'oauth2');
  // MCP authorization (server metadata discovery): a server that publishes only OpenID Connect
  // discovery is read from there; the same exact checks apply to it.
  if (rfc8414 === undefined)
    logger.debug('no RFC 8414 metadata published; reading OpenID Connect discovery', { issuer: target.expectedIssuer });
  const discovered = rfc8414 ?? (await readServerMetadata(target, fetch, 'oidc'));
  if (discovered === undefined) {
    throw new OAuthError(
      'OAUTH_DISCOVERY_FAILED',
      `${target.expectedIssuer} publishes neither RFC 8414 nor OpenID Connect discovery metadata.`,
      {
        hint: 'Check the --school URL; it must be the base address of the school, which publishes /.well-known/oauth-authorization-server.',
      },
    );
  }
  let server = validateServerMetadata(discovered.serverMetadata(), target);

  const openid =
    rfc8414 === undefined
      ? undefined
      : await fetchOptionalJson(new URL(`${target.expectedIssuer}/.well-known/openid-configuration`), fetch, logger);
  if (openid !== undefined) {
    const merged = mergeOpenIdConfiguration(server, openid, target);
    if (merged.disagreements.length > 0) {
      logger.warn('OpenID discovery disagrees with the authorization server metadata; using the latter', {
        fields: merged.disagreements,
      });
    }
    server = merged.server;
  }

  const resourceUrl = wellKnownUrl(target.expectedIssuer, 'oauth-protected-resource');
  const resourceDocument = await fetchOptionalJson(resourceUrl, fetch, logger);
  const resource =
    resourceDocument === undefined
      ? { resource: target.expectedIssuer, scopes: [] }
      : validateResourceMetadata(resourceDocument, target);
  return { issuer: server.issuer, server, resource: resource.resource, resourceScopes: resource.scopes };
}

/** RFC 8414 (`oauth2`) or OpenID Connect (`oidc`) discovery; `undefined` when answered 404. */
async function readServerMetadata(
  target: SchoolTarget,
  fetch: FetchLike,
  algorithm: 'oauth2' | 'oidc',
): Promise<client.Configuration | undefined> {
  const oidc = await loadOpenIdClient();
  try {
    return await oidc.discovery(new URL(target.expectedIssuer), DISCOVERY_CLIENT_ID, undefined, oidc.None(), {
      algorithm,
      [oidc.customFetch]: fetch as client.CustomFetch,
      ...(target.insecureLoopback ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
  } catch (error) {
    if (error instanceof oidc.ClientError && error.cause instanceof Response && error.cause.status === 404)
      return undefined;
    const url =
      algorithm === 'oauth2'
        ? wellKnownUrl(target.expectedIssuer, 'oauth-authorization-server')
        : new URL(`${target.expectedIssuer}/.well-known/openid-configuration`);
    throw discoveryError(error, url);
  }
}

/** A JSON object from a well-known URL, `undefined` on 404; anything else odd is an error. */
async function fetchOptionalJson(url: URL, fetch: FetchLike, logger: Logger): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url.href, { method: 'GET', headers: { accept: 'application/json' } });
  } catch (error) {
    throw discoveryError(error, url);
  }
  if (response.status === 404) {
    logger.debug('optional metadata document not published', { url: describe(url.href) });
    return undefined;
  }
  if (response.status !== 200) {
    throw new OAuthError('OAUTH_DISCOVERY_FAILED', `${describe(url.href)} answered ${response.status}.`, {
      hint: 'The school may be down; try again in a moment.',
    });
  }
  const type = response.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new OAuthError(
      'OAUTH_INVALID_METADATA',
      `${describe(url.href)} is not JSON (content-type ${quotedText(type, 60)}).`,
      {
        hint: 'Check the --school URL: it must be the school itself, not a login page in front of it.',
      },
    );
  }
  try {
    return JSON.parse(await response.text()) as unknown;
  } catch (cause) {
    throw new OAuthError('OAUTH_INVALID_METADATA', `${describe(url.href)} is not valid JSON.`, {
      cause,
      hint: 'The school publishes broken metadata; try again later or contact the school.',
    });
  }
}

function discoveryError(error: unknown, url: URL): OAuthError {
  const mapped = toOAuthError(error, 'discovery');
  if (isOAuthError(mapped) && mapped.code !== 'OAUTH_AUTHORIZATION_FAILED') return mapped;
  return new OAuthError('OAUTH_DISCOVERY_FAILED', `Could not read ${describe(url.href)}.`, {
    cause: error,
    hint: 'Check the --school URL; it must be the base address of the school.',
  });
}
