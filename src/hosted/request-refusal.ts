/**
 * The hosted server's answers that refuse a request before any page or the engine sees it: the
 * OAuth error shape (RFC 6749 §5.2) every client here reads, and the plain 405 of a page asked for
 * with a method it does not take.
 */
import type { ServerResponse } from 'node:http';

export function refuseRequest(
  res: ServerResponse,
  status: 400 | 403 | 404 | 413 | 421 | 429,
  error: string,
  description: string,
  retryAfterSeconds?: number,
): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (retryAfterSeconds !== undefined) headers['retry-after'] = String(retryAfterSeconds);
  // The body of a refused upload is not read; closing the connection discards it.
  if (status === 413) headers['connection'] = 'close';
  res.writeHead(status, headers);
  res.end(JSON.stringify({ error, error_description: description }));
}

export function answerMethodNotAllowed(res: ServerResponse): void {
  res.writeHead(405, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: 'method_not_allowed' }));
}
