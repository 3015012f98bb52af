/**
 * What a scope lets its holder do, read from the operations that accept it, never from how it is
 * spelled: a school may call its scopes `admin`, `write:org` or `courses.manage`, and a challenge
 * may name any of them. Pure.
 *
 * - A scope is *readable* when some read operation (GET, HEAD) accepts it, in any alternative.
 * - A scope is *writing* when some operation that changes data accepts it.
 * - The *reads* of a toolset are the scopes its read operations ask for (their least-privilege
 *   alternative) that no writing operation accepts: granting them lets nothing be changed.
 * @see SECURITY.md AZ-08
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
  readonly writing: ReadonlySet<string>;
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
  /** A writing scope → the reads of the toolsets whose writes accept it, asked for with it. */
  readonly readsWith: Readonly<Record<string, readonly string[]>>;
}

export function scopeRoles(operations: Iterable<ScopedOperation>): ScopeRoles {
  const readable = new Set<string>();
  const writing = new Set<string>();
  for (const operation of operations) {
    const into = isReadOnlyMethod(operation.method) ? readable : writing;
    for (const alternative of operation.scopeAlternatives) for (const scope of alternative) into.add(scope);
  }
  return { readable, writing };
}

/**
 * `operations` is the whole document's (a write found through discovery has a group too);
 * `enabledToolsets` are those whose reads the first consent asks for.
 */
export function consentScopeFacts(operations: readonly ToolsetOperation[], enabledToolsets: Iterable<string>): ConsentScopeFacts {
  const roles = scopeRoles(operations);
  const readsByToolset = new Map<string, Set<string>>();
  for (const operation of operations) {
    if (!isReadOnlyMethod(operation.method)) continue;
    const reads = readsByToolset.get(operation.toolset) ?? new Set<string>();
    for (const scope of operation.requiredScopes) if (!roles.writing.has(scope)) reads.add(scope);
    readsByToolset.set(operation.toolset, reads);
  }
  const readsOf = (toolset: string): readonly string[] => [...(readsByToolset.get(toolset) ?? [])];

  const withWrite = new Map<string, Set<string>>();
  for (const operation of operations) {
    if (isReadOnlyMethod(operation.method)) continue;
    for (const scope of new Set(operation.scopeAlternatives.flat())) {
      const reads = withWrite.get(scope) ?? new Set<string>();
      for (const read of readsOf(operation.toolset)) reads.add(read);
      withWrite.set(scope, reads);
    }
  }
  return {
    readable: sorted(roles.readable),
    upFront: sorted([...enabledToolsets].flatMap(readsOf)),
    readsWith: Object.fromEntries([...withWrite].filter(([, reads]) => reads.size > 0).map(([scope, reads]) => [scope, sorted(reads)])),
  };
}

function sorted(scopes: Iterable<string>): string[] {
  return [...new Set(scopes)].sort();
}
