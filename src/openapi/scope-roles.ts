/**
 * What each scope of a document is for, learnt from the operations that accept it rather than
 * from how it is spelt: `classroom.courses` and `https://purl.imsglobal.org/.../roster.readonly`
 * carry no `:read`/`:write` suffix to go by.
 *
 * - A scope is write-capable when some operation that changes data (any method but GET and HEAD)
 *   accepts it. When such an operation asks for several scopes at once, the write is granted by
 *   those of them that no read accepts (`courses:read` + `courses:write` marks only the second);
 *   when reads accept them all, all of them are write-capable.
 * - A scope's breadth is how many operations accept it: of two alternatives, the one whose
 *   scopes open fewer operations is the narrower.
 * @see SECURITY.md API-09
 */
import type { HttpMethod } from './operation.js';
import type { ScopeAlternatives } from './toolsets.js';

export interface ScopeUse {
  readonly method: HttpMethod;
  readonly scopeAlternatives: ScopeAlternatives;
}

export interface ScopeRoles {
  isWriteCapable(scope: string): boolean;
  /** How many operations of the document accept the scope (0 for a scope none names). */
  breadth(scope: string): number;
}

export function isReadMethod(method: HttpMethod): boolean {
  return method === 'get' || method === 'head';
}

export function scopeRoles(operations: readonly ScopeUse[]): ScopeRoles {
  const readScopes = new Set<string>();
  const breadth = new Map<string, number>();
  for (const operation of operations) {
    const accepted = new Set(operation.scopeAlternatives.flat());
    for (const scope of accepted) breadth.set(scope, (breadth.get(scope) ?? 0) + 1);
    if (isReadMethod(operation.method)) accepted.forEach((scope) => readScopes.add(scope));
  }
  const writeCapable = new Set<string>();
  for (const operation of operations) {
    if (isReadMethod(operation.method)) continue;
    for (const alternative of operation.scopeAlternatives) {
      const grantingWrite = alternative.filter((scope) => !readScopes.has(scope));
      (grantingWrite.length > 0 ? grantingWrite : alternative).forEach((scope) => writeCapable.add(scope));
    }
  }
  return {
    isWriteCapable: (scope) => writeCapable.has(scope),
    breadth: (scope) => breadth.get(scope) ?? 0,
  };
}

/**
 * The narrowest alternative: fewest write-capable scopes (a read never asks for a read-write
 * scope when a read-only one is accepted), then fewest scopes, then the fewest operations opened,
 * then document order.
 */
export function narrowestAlternative(alternatives: ScopeAlternatives, roles: ScopeRoles): readonly string[] {
  let best: readonly string[] | undefined;
  let bestRank: readonly number[] = [];
  for (const alternative of alternatives) {
    const rank = [
      alternative.filter((scope) => roles.isWriteCapable(scope)).length,
      alternative.length,
      alternative.reduce((sum, scope) => sum + roles.breadth(scope), 0),
    ];
    if (best === undefined || isLower(rank, bestRank)) {
      best = alternative;
      bestRank = rank;
    }
  }
  return best ?? [];
}

function isLower(rank: readonly number[], than: readonly number[]): boolean {
  for (let index = 0; index < rank.length; index += 1) {
    const a = rank[index] ?? 0;
    const b = than[index] ?? 0;
    if (a !== b) return a < b;
  }
  return false;
}
