/**
 * Request parameters of the OAuth endpoints: form bodies (RFC 6749 §3.2 and the token, revocation
 * and introspection endpoints) and the authorization query (§3.1). Both refuse a parameter sent
 * twice, because which copy wins is exactly what a parameter-pollution attack exploits.
 */
import { OAuthError } from './oauth-error.js';

export type Parameters = ReadonlyMap<string, string>;

/** Pure: collects parameters, or names the first one that appears more than once. */
export function collectParameters(search: URLSearchParams): { params: Parameters } | { duplicate: string } {
  const params = new Map<string, string>();
  for (const [name, value] of search) {
    if (params.has(name)) return { duplicate: name };
    params.set(name, value);
  }
  return { params };
}

/** Reads an `application/x-www-form-urlencoded` body; anything else is `invalid_request`. */
export async function readFormParameters(request: Request): Promise<Parameters> {
  const contentType = request.headers.get('content-type') ?? '';
  if (contentType.split(';')[0]!.trim().toLowerCase() !== 'application/x-www-form-urlencoded') {
    throw new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded');
  }
  const collected = collectParameters(new URLSearchParams(await request.text()));
  if ('duplicate' in collected) {
    throw new OAuthError('invalid_request', `parameter ${collected.duplicate} must not be sent more than once`);
  }
  return collected.params;
}

/** A parameter that must be present and non-empty. */
export function requireParameter(params: Parameters, name: string): string {
  const value = params.get(name);
  if (value === undefined || value === '') throw new OAuthError('invalid_request', `missing parameter ${name}`);
  return value;
}
