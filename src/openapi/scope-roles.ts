/**
 * What scopes let their holder do, read from the operations that accept them, never from how they
 * are spelled: a school may call its scopes `admin`, `write:org`, `courses.manage` or
 * `https://www.googleapis.com/auth/classroom.courses`, and a challenge may name any of them. Pure.
 *
 * - A scope is *readable* when some read operation (GET, HEAD) accepts it, in any alternative.
 * - A set of scopes *enables a change* when it holds every scope of one alternative of some
 *   operation that changes data. `courses:read` alone changes nothing even where creating a plan
 *   needs `membership_plans:write courses:read`; a scope that alone lets a DELETE through does.
 * - A scope is *write-capable* when it is what grants some change: of a change's alternative, the
 *   scopes no read accepts (`courses:read` + `courses:write` marks only the second); when reads
 *   accept them all, all of them.
 * - A scope's *breadth* is how many operations accept it: of two alternatives, the one whose
 *   scopes open fewer operations is the narrower.
 * - The *reads* of a toolset are the scopes its read operations ask for (their narrowest
 *   alternative), less any that together with the other reads would enable a change: granting
 *   them up front lets nothing be changed.
 * @see SECURITY.md AZ-08, API-09
 */
import { isReadOnlyMethod } from './annotations.js';
import type { HttpMethod } from './operation.js';

export interface ScopedOperation {
  readonly method: HttpMethod;
  readonly scopeAlternatives: readonly (readonly string[])[];
}

export interface ToolsetOperation extends ScopedOperation {
  readonly requiredScopes: readonly string[];
  readonly toolset: string;
}

export interface ScopeRoles {
  readonly readable: ReadonlySet<string>;
  /** The scoped alternatives of the operations that change data. */
  readonly changes: readonly (readonly string[])[];
  isWriteCapable(scope: string): boolean;
  /** How many operations of the document accept the scope (0 for a scope none names). */
  breadth(scope: string): number;
}

/**
 * What sign-in needs to know of the document to decide what a consent asks for. Plain data, so
 * that the sign-in part can take it without knowing OpenAPI.
 */
export interface ConsentScopeFacts {
  /** Sorted scopes that some read operation accepts: all that a read-only consent may ask for. */
  readonly readable: readonly string[];
  /** The reads of the enabled toolsets, asked for on the first consent. */
  readonly upFront: readonly string[];
  /**
   * A scope that some change accepts and that is not a read itself → the reads of the toolsets of
   * those changes, asked for with it. No read is a key, so asking again for what a consent asked
   * for adds nothing (a flow that is joined is never widened).
   */
  readonly readsWith: Readonly<Record<string, readonly string[]>>;
}

export function scopeRoles(operations: Iterable<ScopedOperation>): ScopeRoles {
  const readable = new Set<string>();
  const changes: (readonly string[])[] = [];
  const breadth = new Map<string, number>();
  for (const operation of operations) {
    for (const scope of new Set(operation.scopeAlternatives.flat())) breadth.set(scope, (breadth.get(scope) ?? 0) + 1);
    if (isReadOnlyMethod(operation.method)) {
      for (const alternative of operation.scopeAlternatives) for (const scope of alternative) readable.add(scope);
    } else {
      for (const alternative of operation.scopeAlternatives) if (alternative.length > 0) changes.push(alternative);
    }
  }
  const writeCapable = new Set<string>();
  for (const alternative of changes) {
    const grantingWrite = alternative.filter((scope) => !readable.has(scope));
    for (const scope of grantingWrite.length > 0 ? grantingWrite : alternative) writeCapable.add(scope);
  }
  return {
    readable,
    changes,
    isWriteCapable: (scope) => writeCapable.has(scope),
    breadth: (scope) => breadth.get(scope) ?? 0,
  };
}

/** True when holding `scopes` is enough for some operation that changes data. */
export function enablesChange(scopes: Iterable<string>, changes: readonly (readonly string[])[]): boolean {
  const held = new Set(scopes);
  const index = changesByFirstScope(changes);
  if (index.unscoped) return true;
  for (const scope of held) {
    if (index.byFirstScope.get(scope)?.some((alternative) => alternative.every((name) => held.has(name)))) return true;
  }
  return false;
}

interface ChangeIndex {
  /** Some change needs no scope at all, so any held set enables it. */
  readonly unscoped: boolean;
  readonly byFirstScope: ReadonlyMap<string, readonly (readonly string[])[]>;
}

/**
 * A change can only be enabled by a set that holds its first scope, so each read asks only about
 * the changes filed under the scopes it holds: scanning every change for every read made choosing
 * the read scopes quadratic in the document's operations.
 */
const changeIndexes = new WeakMap<readonly (readonly string[])[], ChangeIndex>();

function changesByFirstScope(changes: readonly (readonly string[])[]): ChangeIndex {
  let index = changeIndexes.get(changes);
  if (index === undefined) {
    const byFirstScope = new Map<string, (readonly string[])[]>();
    let unscoped = false;
    for (const alternative of changes) {
      const first = alternative[0];
      if (first === undefined) unscoped = true;
      else {
        const filed = byFirstScope.get(first);
        if (filed) filed.push(alternative);
        else byFirstScope.set(first, [alternative]);
      }
    }
    index = { unscoped, byFirstScope };
    changeIndexes.set(changes, index);
  }
  return index;
}

/**
 * The alternative to ask for, the narrowest: for a read, first of all one whose scopes enable no
 * change, even when it names more scopes; then the fewest write-capable scopes (a read never asks
 * for a read-write scope when a read-only one is accepted); then the fewest scopes; then the
 * fewest operations opened; then document order.
 */
export function narrowestAlternative(
  alternatives: readonly (readonly string[])[],
  method: HttpMethod,
  roles: ScopeRoles,
): readonly string[] {
  const read = isReadOnlyMethod(method);
  const rankOf = (alternative: readonly string[]) => [
    read && enablesChange(alternative, roles.changes) ? 1 : 0,
    alternative.filter((scope) => roles.isWriteCapable(scope)).length,
    alternative.length,
    alternative.reduce((sum, scope) => sum + roles.breadth(scope), 0),
  ];
  let best: readonly string[] | undefined;
  let bestRank: readonly number[] = [];
  for (const alternative of alternatives) {
    const rank = rankOf(alternative);
    if (best === undefined || isLower(rank, bestRank)) {
      best = alternative;
      bestRank = rank;
    }
  }
  return best ?? [];
}

function isLower(rank: readonly number[], than: readonly number[]): boolean {
  for (let index = 0; index < rank.length; index += 1) {
    const [a = 0, b = 0] = [rank[index], than[index]];
    if (a !== b) return a < b;
  }
  return false;
}

/**
 * `operations` is the whole document's (a write found through discovery has a group too);
 * `enabledToolsets` are those whose reads the first consent asks for.
 */
export function consentScopeFacts(
  operations: readonly ToolsetOperation[],
  enabledToolsets: Iterable<string>,
): ConsentScopeFacts {
  const roles = scopeRoles(operations);
  const reads = operations.filter((operation) => isReadOnlyMethod(operation.method));
  const safe = safeReads(new Set(reads.flatMap((operation) => operation.requiredScopes)), roles.changes);
  const readsByToolset = new Map<string, Set<string>>();
  for (const operation of reads) {
    const found = readsByToolset.get(operation.toolset) ?? new Set<string>();
    for (const scope of operation.requiredScopes) if (safe.has(scope)) found.add(scope);
    readsByToolset.set(operation.toolset, found);
  }
  const readsOf = (toolset: string): readonly string[] => [...(readsByToolset.get(toolset) ?? [])];

  const withChange = new Map<string, Set<string>>();
  for (const operation of operations) {
    if (isReadOnlyMethod(operation.method)) continue;
    for (const scope of new Set(operation.scopeAlternatives.flat())) {
      if (safe.has(scope)) continue;
      const found = withChange.get(scope) ?? new Set<string>();
      for (const read of readsOf(operation.toolset)) found.add(read);
      withChange.set(scope, found);
    }
  }
  return {
    readable: sorted(roles.readable),
    upFront: sorted([...enabledToolsets].flatMap(readsOf)),
    readsWith: Object.fromEntries(
      [...withChange].filter(([, found]) => found.size > 0).map(([scope, found]) => [scope, sorted(found)]),
    ),
  };
}

/** The scopes reads ask for, less those of every change they would enable together. */
function safeReads(asked: ReadonlySet<string>, changes: readonly (readonly string[])[]): ReadonlySet<string> {
  const safe = new Set(asked);
  for (const alternative of changes) {
    if (alternative.every((scope) => asked.has(scope))) for (const scope of alternative) safe.delete(scope);
  }
  return safe;
}

function sorted(scopes: Iterable<string>): string[] {
  return [...new Set(scopes)].sort();
}
