/**
 * A shared session needs the store on every request; while the store is unreachable, `/mcp`
 * answers as every hosted route does then: 503 with `Retry-After: 1` and an OAuth-shaped body,
 * at once, rather than the HTTP adapter's 500 for an unexpected error. Pure.
 * @see SECURITY.md SCL-35
 */
import { SchoolMcpError } from '../errors.js';

/** The answer to a request that failed because the store is away; any other failure is thrown again. */
export function storeUnavailableAnswer(error: unknown): Response {
  if (!(error instanceof SchoolMcpError) || error.code !== 'STORE_UNAVAILABLE') throw error;
  return Response.json(
    {
      error: 'temporarily_unavailable',
      error_description: 'The session store of school-mcp is unreachable; retry in a moment.',
    },
    { status: 503, headers: { 'retry-after': '1', 'cache-control': 'no-store' } },
  );
}
