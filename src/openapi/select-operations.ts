/**
 * The tools a server exposes, from user options: `--toolsets a,b|all`, `--read-only`, `--tools`,
 * `--exclude-tools`. An exact `--tools` list wins over toolsets; exclusions apply last. Read-only
 * keeps GET and HEAD operations only and removes every alternative that needs a scope some write
 * operation of the document accepts, so that only read scopes are ever requested. Unknown names are errors that list the valid ones.
 * @see SECURITY.md API-09
 */
import { catalogOf, type ToolCatalog } from './catalog.js';
import { withScopeLine } from './descriptions.js';
import { openApiError } from './openapi-error.js';
import type { Operation } from './operation.js';
import { isReadOnlyMethod } from './annotations.js';
import { searchOperations } from './search.js';
import { narrowestAlternative, type ScopeRoles } from './scope-roles.js';

export interface OperationSelection {
  readonly toolsets?: readonly string[] | 'all';
  readonly readOnly?: boolean;
  readonly tools?: readonly string[];
  readonly excludeTools?: readonly string[];
}

const MAX_LISTED_NAMES = 60;
const MAX_SUGGESTIONS = 10;

export function selectOperations(catalog: ToolCatalog, selection: OperationSelection): ToolCatalog {
  const warnings: string[] = [];
  let chosen: readonly Operation[];
  if (selection.tools !== undefined && selection.tools.length > 0) {
    requireKnownTools(catalog, selection.tools, '--tools');
    const wanted = new Set(selection.tools);
    chosen = catalog.operations.filter((operation) => wanted.has(operation.toolName));
  } else if (selection.toolsets === undefined || selection.toolsets === 'all') {
    chosen = catalog.operations;
  } else {
    const unknown = selection.toolsets.filter((name) => !catalog.toolsets.has(name));
    if (unknown.length > 0) {
      throw openApiError(
        'OPENAPI_UNKNOWN_TOOLSET',
        `Unknown toolset${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`,
        `Valid toolsets: ${[...catalog.toolsets.keys()].join(', ')}, or "all".`,
      );
    }
    const wanted = new Set(selection.toolsets);
    chosen = catalog.operations.filter((operation) => wanted.has(operation.toolset));
  }
  if (selection.excludeTools !== undefined && selection.excludeTools.length > 0) {
    requireKnownTools(catalog, selection.excludeTools, '--exclude-tools');
    const excluded = new Set(selection.excludeTools);
    chosen = chosen.filter((operation) => !excluded.has(operation.toolName));
  }
  if (selection.readOnly === true) chosen = readOnlyOperations(chosen, catalog.scopeRoles, selection.tools !== undefined, warnings);
  return catalogOf(chosen, { ...catalog, warnings: [...catalog.warnings, ...warnings] });
}

function readOnlyOperations(operations: readonly Operation[], roles: ScopeRoles, listedByName: boolean, warnings: string[]): Operation[] {
  const result: Operation[] = [];
  for (const operation of operations) {
    if (!isReadOnlyMethod(operation.method)) {
      if (listedByName) warnings.push(`${operation.toolName} is left out: it changes data and read-only mode is on.`);
      continue;
    }
    const narrowed = readOnlyVariant(operation, roles);
    if (narrowed) result.push(narrowed);
    else warnings.push(`${operation.toolName} is left out: every way to call it needs a write scope.`);
  }
  return result;
}

/**
 * The operation with every alternative that holds a write-capable scope removed (write-capable as
 * the document's operations show, `scope-roles.ts`); undefined when none is left.
 */
export function readOnlyVariant(operation: Operation, roles: ScopeRoles): Operation | undefined {
  const alternatives = operation.scopeAlternatives.filter((alternative) => !alternative.some((scope) => roles.isWriteCapable(scope)));
  if (alternatives.length === operation.scopeAlternatives.length) return operation;
  if (alternatives.length === 0) return undefined;
  const requiredScopes = narrowestAlternative(alternatives, roles);
  return {
    ...operation,
    scopeAlternatives: alternatives,
    requiredScopes,
    description: withScopeLine(operation.description, alternatives, requiredScopes, operation.anonymousAccess === true),
  };
}

function requireKnownTools(catalog: ToolCatalog, names: readonly string[], option: string): void {
  const unknown = names.filter((name) => !catalog.byName.has(name));
  if (unknown.length === 0) return;
  const all = [...catalog.byName.keys()];
  const near = searchOperations(catalog, unknown.join(' '), MAX_SUGGESTIONS).map(({ operation }) => operation.toolName);
  const valid = all.length <= MAX_LISTED_NAMES ? `Valid names: ${all.join(', ')}.` : near.length > 0 ? `Closest of the ${all.length} names: ${near.join(', ')}.` : `There are ${all.length} tools; search them by word.`;
  throw openApiError('OPENAPI_UNKNOWN_TOOL', `Unknown tool name${unknown.length > 1 ? 's' : ''} in ${option}: ${unknown.join(', ')}.`, valid);
}
