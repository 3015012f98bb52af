/**
 * Validation of what the school says about itself. Pure: every rule here runs on parsed JSON.
 * RFC 8414 (authorization server metadata) is the source of truth; RFC 9728 (protected resource
 * metadata) gives the resource identifier; OpenID discovery may only add the userinfo endpoint.
 */
import type { ServerMetadata } from 'openid-client';
import { OAuthError } from './oauth-error.js';
import type { SchoolTarget } from './school-url.js';
import { quotedText } from '../school-text/index.js';

const ENDPOINT_FIELDS = [
  'authorization_endpoint',
  'token_endpoint',
  'registration_endpoint',
  'revocation_endpoint',
  'introspection_endpoint',
  'userinfo_endpoint',
] as const;

type EndpointField = (typeof ENDPOINT_FIELDS)[number];

/** Parameters we add to the authorization URL; an endpoint that already has one is refused (AZ-07). */
const RESERVED_AUTHORIZATION_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
];

function invalidMetadata(message: string): OAuthError {
  return new OAuthError('OAUTH_INVALID_METADATA', message, {
    hint: 'The school publishes metadata this client cannot trust; check the --school URL or contact the school.',
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * MD-02: an endpoint is https (http only when the school itself is a loopback sandbox), on the
 * school's own origin, without credentials or a fragment.
 */
function validateEndpointUrl(value: unknown, field: string, target: SchoolTarget): URL {
  if (typeof value !== 'string' || value.length === 0) throw invalidMetadata(`${field} is missing or not a string.`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidMetadata(`${field} is not a URL.`);
  }
  // The origin check below pins an http endpoint to the loopback school's own address.
  const httpAllowed = target.insecureLoopback && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !httpAllowed)
    throw invalidMetadata(`${field} must use https (got ${quotedText(url.protocol, 20)}).`);
  if (url.username || url.password) throw invalidMetadata(`${field} must not carry credentials.`);
  if (url.hash || value.includes('#')) throw invalidMetadata(`${field} must not carry a fragment.`);
  if (url.origin !== target.url.origin) {
    throw invalidMetadata(
      `${field} points to ${quotedText(url.origin, 100)}, outside the school's origin ${target.url.origin}.`,
    );
  }
  return url;
}

/** MD-01 (exact string comparison, no normalisation) and MD-02 over every endpoint. */
export function validateServerMetadata(raw: unknown, target: SchoolTarget): ServerMetadata {
  if (!isPlainObject(raw)) throw invalidMetadata('The authorization server metadata is not a JSON object.');
  if (raw.issuer !== target.expectedIssuer) {
    throw new OAuthError(
      'OAUTH_ISSUER_MISMATCH',
      `The school's metadata names the issuer ${quotedText(raw.issuer)}, expected ${target.expectedIssuer}.`,
      { hint: 'Check the --school URL; if it is right, the school is misconfigured or being impersonated.' },
    );
  }
  for (const required of ['authorization_endpoint', 'token_endpoint'] as const) {
    if (raw[required] === undefined) throw invalidMetadata(`${required} is missing from the metadata.`);
  }
  const metadata: Record<string, unknown> = { ...raw };
  for (const field of ENDPOINT_FIELDS) {
    if (raw[field] === undefined) continue;
    metadata[field] = validateEndpointUrl(raw[field], field, target).href;
  }
  const authorization = new URL(metadata.authorization_endpoint as string);
  for (const name of RESERVED_AUTHORIZATION_PARAMS) {
    if (authorization.searchParams.has(name))
      throw invalidMetadata(`authorization_endpoint already carries the ${name} parameter.`);
  }
  for (const list of ['scopes_supported', 'code_challenge_methods_supported', 'response_types_supported'] as const) {
    const value = raw[list];
    if (value !== undefined && !(Array.isArray(value) && value.every((item) => typeof item === 'string'))) {
      throw invalidMetadata(`${list} must be an array of strings.`);
    }
  }
  const responseTypes = raw.response_types_supported as string[] | undefined;
  if (responseTypes && !responseTypes.includes('code'))
    throw invalidMetadata('The school does not support the authorization code flow.');
  return metadata as unknown as ServerMetadata;
}

/**
 * AZ-03: S256 must be listed, compared exactly; absent, empty or `plain`-only metadata is refused
 * (MCP authorization: "MUST refuse to proceed"; RFC 7636 §7.2: no downgrade).
 */
export function assertPkceS256(metadata: Pick<ServerMetadata, 'code_challenge_methods_supported'>): void {
  const methods = metadata.code_challenge_methods_supported;
  if (Array.isArray(methods) && methods.includes('S256')) return;
  throw new OAuthError(
    'OAUTH_PKCE_UNSUPPORTED',
    `The school does not advertise PKCE S256 (code_challenge_methods_supported: ${quotedText(methods ?? null)}).`,
    { hint: 'Sign-in is refused without PKCE S256; the school has to list it in its metadata.' },
  );
}

export interface ResourceMetadata {
  resource: string;
  scopes: string[];
}

/**
 * RFC 9728 §3.3: `resource` must be the identifier we asked about (here: on the school's origin,
 * https or loopback, no fragment), and the authorization server must still be the pinned one
 * (MD-05).
 */
export function validateResourceMetadata(raw: unknown, target: SchoolTarget): ResourceMetadata {
  if (!isPlainObject(raw)) throw invalidMetadata('The protected resource metadata is not a JSON object.');
  const resource = validateEndpointUrl(raw.resource, 'resource', target);
  const servers = raw.authorization_servers;
  if (servers !== undefined) {
    if (!Array.isArray(servers)) throw invalidMetadata('authorization_servers must be an array.');
    if (!servers.includes(target.expectedIssuer)) {
      throw new OAuthError('OAUTH_ISSUER_MISMATCH', 'The school API no longer names this authorization server.', {
        hint: 'The school changed its authorization server; check the --school URL before signing in again.',
      });
    }
  }
  const scopes = Array.isArray(raw.scopes_supported)
    ? raw.scopes_supported.filter((s): s is string => typeof s === 'string')
    : [];
  return { resource: canonicalResource(raw.resource as string, resource), scopes };
}

/** RFC 8707 §2: the value is sent as given by the school (no added trailing slash). */
function canonicalResource(given: string, parsed: URL): string {
  return parsed.pathname === '/' && !given.endsWith('/') ? parsed.origin : parsed.href;
}

/**
 * OpenID discovery must agree with the RFC 8414 document; where it does not, the RFC 8414
 * document wins and only a missing userinfo endpoint is taken from OpenID discovery.
 */
export function mergeOpenIdConfiguration(
  server: ServerMetadata,
  raw: unknown,
  target: SchoolTarget,
): { server: ServerMetadata; disagreements: EndpointField[] } {
  if (!isPlainObject(raw) || raw.issuer !== server.issuer) return { server, disagreements: [] };
  const disagreements = ENDPOINT_FIELDS.filter(
    (field) => typeof raw[field] === 'string' && typeof server[field] === 'string' && raw[field] !== server[field],
  );
  if (server.userinfo_endpoint || raw.userinfo_endpoint === undefined) return { server, disagreements };
  const userinfo = validateEndpointUrl(raw.userinfo_endpoint, 'userinfo_endpoint', target).href;
  return { server: { ...server, userinfo_endpoint: userinfo }, disagreements };
}
