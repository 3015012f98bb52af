/**
 * Scope algebra (RFC 6749 §3.3: a space-delimited, case-sensitive, unordered set). Pure. What a
 * consent asks for is decided in `consent-policy.ts`; nothing here reads meaning into a scope's name.
 */
import { quotableScopes } from '../school-text/index.js';

export const BASELINE_SCOPES: readonly string[] = ['openid', 'profile'];

/** RFC 6749 §3.3 scope-token: printable ASCII except space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

export function isScopeToken(value: string): boolean {
  return SCOPE_TOKEN.test(value);
}

export function parseScope(value: string | undefined | null): string[] {
  if (!value) return [];
  return normalizeScopes(value.split(' '));
}

export function formatScope(scopes: readonly string[]): string {
  return normalizeScopes(scopes).join(' ');
}

/** Deduplicated and sorted, so that two equal sets compare and print the same way. */
export function normalizeScopes(scopes: Iterable<string>): string[] {
  return [...new Set([...scopes].filter((scope) => scope.length > 0))].sort();
}

export function unionScopes(...sets: ReadonlyArray<readonly string[]>): string[] {
  return normalizeScopes(sets.flat());
}

export function missingScopes(granted: readonly string[], required: readonly string[]): string[] {
  const have = new Set(granted);
  return normalizeScopes(required.filter((scope) => !have.has(scope)));
}

export function includesAll(granted: readonly string[], required: readonly string[]): boolean {
  return missingScopes(granted, required).length === 0;
}

/**
 * True when one alternative is wholly granted. No alternatives at all means that no scope is
 * needed: any valid token will do.
 */
export function satisfiesAny(granted: readonly string[], alternatives: ReadonlyArray<readonly string[]>): boolean {
  return alternatives.length === 0 || alternatives.some((alternative) => includesAll(granted, alternative));
}

/**
 * The granted scopes after a token response. RFC 6749 §5.1: `scope` is omitted when it equals
 * the request, so absence means "as requested". Only real scope-tokens are kept: they are shown
 * by `who_am_i` and `status` (ERR-05).
 */
export function grantedFromResponse(responseScope: unknown, requested: readonly string[]): string[] {
  return typeof responseScope === 'string'
    ? normalizeScopes(quotableScopes(responseScope.split(' ')))
    : normalizeScopes(requested);
}

/**
 * The scopes a grant is judged by: the baseline OpenID Connect scopes serve the ID token and
 * userinfo, and an access token bound to a resource (RFC 8707 §2.2) may leave them out of its
 * `scope` (node-oidc-provider does). Whether they came back never decides "granted enough".
 */
export function scopesToCheck(scopes: readonly string[]): string[] {
  return scopes.filter((scope) => !BASELINE_SCOPES.includes(scope));
}
