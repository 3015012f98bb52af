/**
 * Operations into toolsets, the groups a user enables with `--toolsets`. The first source that
 * gives a sensible grouping wins, per document:
 *
 * 1. Scopes: each operation joins the group of the first scope of the alternative it asks for
 *    (`toolsets.ts` `scopeGroup`); public operations form `public`. This holds when the scopes
 *    give at least two groups, or when nothing else groups the operations: one group for the
 *    whole document (`https_www_googleapis_com_auth_classroom`) is not a choice a user can make,
 *    and neither is one group per operation.
 * 2. Tags: the operation's first tag that reads as a name (a tag such as `carts/{cartId}/items`
 *    is a path, not a name).
 * 3. The first meaningful path segment (`path-words.ts`): `/ims/oneroster/rostering/v1p2/classes`
 *    → `classes`.
 *
 * Whether a tool reads or writes is its method's business (`annotations.ts`), and whether a scope
 * grants writes is the operations' (`scope-roles.ts`); `toolsetSummary` shows both per toolset,
 * which the server prints at start in debug.
 */
import type { HttpMethod } from './operation.js';
import { isPlaceholder, meaningfulSegments, sharedPrefixLength } from './path-words.js';
import { isReadOnlyMethod } from './annotations.js';
import type { ScopeRoles } from './scope-roles.js';
import { PUBLIC_TOOLSET, scopeGroup, toolsetName, type ScopeAlternatives } from './toolsets.js';

export interface GroupingInput {
  readonly method: HttpMethod;
  readonly pathTemplate: string;
  readonly scopeAlternatives: ScopeAlternatives;
  readonly requiredScopes: readonly string[];
  readonly tags: readonly string[];
}

export type GroupingSource = 'scopes' | 'tags' | 'paths';

export interface Grouping {
  /** One toolset per input, in the same order. */
  readonly toolsets: string[];
  readonly source: GroupingSource;
}

export function groupOperations(inputs: readonly GroupingInput[]): Grouping {
  const sharedPrefix = sharedPrefixLength(inputs.map((input) => input.pathTemplate));
  const byPath = inputs.map((input) => pathGroup(input.pathTemplate, sharedPrefix));
  const byTag = inputs.map((input, index) => tagGroup(input.tags) ?? byPath[index] ?? PUBLIC_TOOLSET);
  const documentHasScopes = inputs.some((input) =>
    input.scopeAlternatives.some((alternative) => alternative.length > 0),
  );
  if (documentHasScopes) {
    const byScope = inputs.map((input, index) => scopeToolset(input) ?? byTag[index] ?? PUBLIC_TOOLSET);
    const scoped = distinct(byScope.filter((_, index) => inputs[index]?.scopeAlternatives.length !== 0));
    if (scoped.size >= 2 || !groupsOperations(byTag)) return { toolsets: byScope, source: 'scopes' };
  }
  const tagged = inputs.some((input) => tagGroup(input.tags) !== undefined);
  return { toolsets: byTag, source: tagged ? 'tags' : 'paths' };
}

function scopeToolset(input: GroupingInput): string | undefined {
  if (input.scopeAlternatives.length === 0) return PUBLIC_TOOLSET;
  const [firstScope] = input.requiredScopes;
  if (firstScope === undefined) return undefined;
  return scopeGroup(firstScope) || undefined;
}

function tagGroup(tags: readonly string[]): string | undefined {
  for (const tag of tags) {
    if (/[/{}]/.test(tag)) continue;
    const name = toolsetName(tag);
    if (name !== '') return name;
  }
  return undefined;
}

function pathGroup(pathTemplate: string, sharedPrefix: number): string {
  const segment = meaningfulSegments(pathTemplate, sharedPrefix).find((candidate) => !isPlaceholder(candidate));
  return (segment === undefined ? '' : toolsetName(segment)) || 'root';
}

function distinct(names: readonly string[]): Set<string> {
  return new Set(names);
}

/**
 * A grouping a user can choose from: at least two groups, holding two operations each on
 * average. Paths that are all different (`/things0` … `/things4999`) group nothing.
 */
function groupsOperations(names: readonly string[]): boolean {
  const groups = distinct(names).size;
  return groups >= 2 && groups * 2 <= names.length;
}

export interface ToolsetSummary {
  readonly toolset: string;
  readonly reads: number;
  readonly writes: number;
  /** The scopes its operations accept, write-capable ones marked `(read-write)`. */
  readonly scopes: readonly string[];
}

export interface SummaryInput {
  readonly toolset: string;
  readonly method: HttpMethod;
  readonly scopeAlternatives: ScopeAlternatives;
}

/** Pure: per toolset, its reads, writes and scopes, for the start-up debug line. */
export function toolsetSummary(operations: readonly SummaryInput[], roles: ScopeRoles): ToolsetSummary[] {
  const summaries = new Map<string, { reads: number; writes: number; scopes: Set<string> }>();
  for (const operation of operations) {
    const summary = summaries.get(operation.toolset) ?? { reads: 0, writes: 0, scopes: new Set<string>() };
    if (isReadOnlyMethod(operation.method)) summary.reads += 1;
    else summary.writes += 1;
    operation.scopeAlternatives.flat().forEach((scope) => summary.scopes.add(scope));
    summaries.set(operation.toolset, summary);
  }
  return [...summaries.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([toolset, { reads, writes, scopes }]) => ({
      toolset,
      reads,
      writes,
      scopes: [...scopes].sort().map((scope) => (roles.isWriteCapable(scope) ? `${scope} (read-write)` : scope)),
    }));
}
