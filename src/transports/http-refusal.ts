/**
 * The answers the endpoint gives before any MCP processing: a JSON-RPC error body (the shape the
 * SDK's own guards use, `id: null`), never a CORS header, never a redirect.
 * @see SECURITY.md HTTP-02..HTTP-05, LB-08
 */
import type { ServerResponse } from 'node:http';

export type RefusalStatus = 401 | 403 | 404 | 405 | 413 | 429 | 503;

export interface Refusal {
  readonly status: RefusalStatus;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The methods the endpoint serves; everything else (OPTIONS preflights included) is 405. */
export const SERVED_METHODS = ['POST', 'GET', 'DELETE'] as const;

const MESSAGES: Record<RefusalStatus, string> = {
  401: 'Unauthorized: send the secret as "Authorization: Bearer <secret>"',
  403: 'Forbidden',
  404: 'Not found: the MCP endpoint is /mcp',
  405: 'Method not allowed',
  413: 'Request body too large',
  429: 'Too many connections',
  503: 'Service unavailable',
};

/** Pure: the response for one refusal. `detail` says which rule refused, for the caller's logs. */
export function buildRefusal(status: RefusalStatus, detail?: string): Refusal {
  const message = detail === undefined ? MESSAGES[status] : `${MESSAGES[status]}: ${detail}`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
  // RFC 9110 §11.6.1: a 401 names its scheme. No `resource_metadata`: this is not an OAuth
  // protected resource, and a client must not go looking for an authorization server here.
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="school-mcp"';
  if (status === 405) headers['allow'] = SERVED_METHODS.join(', ');
  // The body of a refused upload is not read; closing the connection discards it.
  if (status === 413) headers['connection'] = 'close';
  // A place frees up when another connection ends, which nobody here can foresee: a few seconds.
  if (status === 429 || status === 503) headers['retry-after'] = '5';
  return { status, headers, body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }) };
}

export function sendRefusal(res: ServerResponse, refusal: Refusal): void {
  res.writeHead(refusal.status, refusal.headers);
  res.end(refusal.body);
}
