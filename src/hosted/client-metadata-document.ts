/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document; the MCP 2025-11-25
 * authorization spec): an MCP client names itself with an https URL, and the document at that URL
 * is its registration. What such a URL may be and what its document must say. Pure.
 * @see SECURITY.md HOST-17, HOST-18, HOST-19, HOST-21
 */
import { checkSchoolUrl, isPublicAddress } from '../network/index.js';

export type ClientIdUrlCheck =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly reason: string };
export type ClientMetadataDocumentCheck =
  | { readonly ok: true; readonly metadata: Record<string, unknown> }
  | { readonly ok: false; readonly reason: string };

/** The fields of a document school-mcp hands to the engine; anything else a document says is left out. */
const KEPT_FIELDS = [
  'client_name',
  'client_uri',
  'logo_uri',
  'tos_uri',
  'policy_uri',
  'contacts',
  'software_id',
  'software_version',
  'redirect_uris',
  'grant_types',
  'response_types',
  'scope',
] as const;

/** A client_id that is a URL names a metadata document; a registered client's id never is one. */
export function isUrlClientId(clientId: string): boolean {
  return clientId.startsWith('https://') || clientId.startsWith('http://');
}

/**
 * The school URL rule (https, or plain http on a loopback literal; no credentials, query or
 * fragment), with plain http only while school-mcp itself is on loopback (tests and the demo), no
 * private or loopback address literal on a public deployment (server-side request forgery, which
 * the draft warns of), and the draft's own client identifier rules: a path, and no dot segments,
 * which the exact-text comparison catches since the URL parser would remove them.
 */
export function checkClientIdUrl(clientId: string, publicUrlIsLoopback: boolean): ClientIdUrlCheck {
  const verdict = checkSchoolUrl(clientId);
  if (!verdict.ok)
    return { ok: false, reason: 'a URL client_id must be https, without credentials, query or fragment' };
  if (verdict.plainHttpOnLoopback && !publicUrlIsLoopback)
    return { ok: false, reason: 'a URL client_id must be https' };
  if (verdict.url.href !== clientId)
    return { ok: false, reason: 'a URL client_id must be written in its normal form, without dot segments' };
  if (verdict.url.pathname === '/') return { ok: false, reason: 'a URL client_id must have a path' };
  // An address literal is connected to without a lookup, so the public-address rule is applied here;
  // names are checked when they resolve (network/public-address.ts).
  const literal = /^[\d.]+$/.test(verdict.url.hostname) || verdict.url.hostname.startsWith('[');
  if (!publicUrlIsLoopback && literal && !isPublicAddress(verdict.url.hostname))
    return { ok: false, reason: 'a URL client_id must not point at a private, loopback or link-local address' };
  return { ok: true, url: verdict.url };
}

function isJsonObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A document fit to be this client's registration, as the draft requires: it names the URL it was
 * fetched from as its client_id, lists redirect URIs, and is a public client (no secret, `none`). The
 * engine then validates the kept fields as it does a registration, redirect rule included.
 */
export function checkClientMetadataDocument(clientId: string, document: unknown): ClientMetadataDocumentCheck {
  if (!isJsonObject(document)) return { ok: false, reason: 'the document is not a JSON object' };
  const fields = document;
  if (fields.client_id !== clientId) return { ok: false, reason: 'the document names another client_id than its URL' };
  if (!Array.isArray(fields.redirect_uris) || fields.redirect_uris.length === 0)
    return { ok: false, reason: 'the document lists no redirect_uris' };
  if ('client_secret' in fields || 'client_secret_expires_at' in fields)
    return { ok: false, reason: 'the document carries a client secret' };
  if (fields.token_endpoint_auth_method !== undefined && fields.token_endpoint_auth_method !== 'none') {
    return {
      ok: false,
      reason: 'a metadata document client must be a public client (token_endpoint_auth_method none)',
    };
  }
  const metadata: Record<string, unknown> = { client_id: clientId, token_endpoint_auth_method: 'none' };
  for (const field of KEPT_FIELDS) if (fields[field] !== undefined) metadata[field] = fields[field];
  return { ok: true, metadata };
}
