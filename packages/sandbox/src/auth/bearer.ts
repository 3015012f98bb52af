/**
 * Bearer tokens on a protected endpoint (RFC 6750): reading the header and writing the
 * `WWW-Authenticate` challenge, which points to the Protected Resource Metadata (RFC 9728 §5.1).
 */

export type BearerCredential = { kind: 'absent' } | { kind: 'malformed' } | { kind: 'token'; token: string };

/** Pure: the token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1). */
export function readBearerToken(authorization: string | null): BearerCredential {
  if (authorization === null) return { kind: 'absent' };
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization);
  return match ? { kind: 'token', token: match[1]! } : { kind: 'malformed' };
}

export interface Challenge {
  realm: string;
  resourceMetadata: string;
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  description?: string;
  scope?: string;
}

/** Pure: the `WWW-Authenticate` value; quotes and backslashes in values are escaped (RFC 9110 §5.6.4). */
export function buildBearerChallenge(challenge: Challenge): string {
  const params: Array<[string, string | undefined]> = [
    ['realm', challenge.realm],
    ['error', challenge.error],
    ['error_description', challenge.description],
    ['scope', challenge.scope],
    ['resource_metadata', challenge.resourceMetadata],
  ];
  const rendered = params
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}="${value.replace(/[\\"]/g, '\\$&')}"`);
  return `Bearer ${rendered.join(', ')}`;
}
