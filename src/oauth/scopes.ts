/**
 * Scope algebra (RFC 6749 §3.3: a space-delimited, case-sensitive, unordered set). Pure.
 * Least privilege: a consent asks for what is granted plus what is required plus `openid profile`,
 * so a grant grows by union and is never shrunk by accident (RFC 9700 §2.3).
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

export function isWriteScope(scope: string): boolean {
  return scope.endsWith(':write');
}

export type ScopePolicy = { mode: 'least' } | { mode: 'fixed'; scopes: string[] };

/**
 * The scopes one consent asks for: granted ∪ required ∪ baseline, plus the chosen set when the
 * policy is fixed. In read-only mode no `:write` scope is ever asked for.
 */
export function consentScopes(input: {
  granted: readonly string[];
  required: readonly string[];
  policy: ScopePolicy;
  readOnly: boolean;
}): string[] {
  const chosen = input.policy.mode === 'fixed' ? input.policy.scopes : [];
  const wanted = unionScopes(input.granted, input.required, chosen, BASELINE_SCOPES);
  return input.readOnly ? wanted.filter((scope) => !isWriteScope(scope)) : wanted;
}

/**
 * The granted scopes after a token response. RFC 6749 §5.1: `scope` is omitted when it equals
 * the request, so absence means "as requested". Only real scope-tokens are kept: they are shown
 * by `who_am_i` and `status` (ERR-05).
 */
export function grantedFromResponse(responseScope: unknown, requested: readonly string[]): string[] {
  return typeof responseScope === 'string' ? normalizeScopes(quotableScopes(responseScope.split(' '))) : normalizeScopes(requested);
}
