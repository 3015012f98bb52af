/**
 * The `scope` parameter (RFC 6749 §3.3): space-delimited, order-insignificant, known names only.
 */
import { isScope, type Scope } from '../scopes.js';

export type ScopeParse = { ok: true; scopes: Scope[] } | { ok: false; reason: string };

/** Pure: parses a scope parameter into distinct known scopes, in the order first given. */
export function parseScope(value: string | undefined): ScopeParse {
  if (value === undefined || value.trim() === '') return { ok: false, reason: 'scope is required' };
  // RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), separated by single spaces.
  const names = value.split(' ');
  if (names.some((name) => name === '')) return { ok: false, reason: 'scope names are separated by single spaces' };
  const unknown = names.filter((name) => !isScope(name));
  if (unknown.length > 0) return { ok: false, reason: `unknown scope: ${unknown.slice(0, 5).join(' ')}` };
  return { ok: true, scopes: [...new Set(names as Scope[])] };
}

export function formatScope(scopes: readonly string[]): string {
  return scopes.join(' ');
}

/** Pure: the requested scopes when all of them are within the granted ones, for a narrowing refresh (RFC 6749 §6). */
export function narrowScope(granted: readonly string[], requested: readonly string[]): string[] | undefined {
  return requested.every((scope) => granted.includes(scope)) ? [...requested] : undefined;
}
