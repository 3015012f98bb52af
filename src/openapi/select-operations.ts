/**
 * The tools a server exposes, from user options: `--toolsets a,b|all`, `--read-only`, `--tools`,
 * `--exclude-tools`. An exact `--tools` list wins over toolsets; exclusions apply last. Read-only
 * keeps GET and HEAD operations only, and of their alternatives those whose scopes enable no
 * change, when there are such (`scope-roles.ts`): every scope asked for is one that a read
 * operation accepts (AZ-08, enforced again at sign-in), and the least powerful of those. Unknown names are errors that list the valid ones.
 * @see SECURITY.md API-09
 * @see SECURITY.md AZ-08
 */
import { SchoolMcpError } from '../errors.js';
import { catalogueOf, type ToolCatalogue } from './catalogue.js';
import { withScopeLine } from './descriptions.js';
import type { Operation } from './operation.js';
import { isReadOnlyMethod } from './annotations.js';
import { deriveOperation } from './operations.js';
import { searchOperations } from './search.js';
import { enablesChange, narrowestAlternative, type ScopeRoles } from './scope-roles.js';

export interface OperationSelection {
  readonly toolsets?: readonly string[] | 'all';
  readonly readOnly?: boolean;
  readonly tools?: readonly string[];
  readonly excludeTools?: readonly string[];
}

const MAX_LISTED_NAMES = 60;
const MAX_SUGGESTIONS = 10;

export function selectOperations(catalogue: ToolCatalogue, selection: OperationSelection): ToolCatalogue {
  const warnings: string[] = [];
  let chosen: readonly Operation[];
  if (selection.tools !== undefined && selection.tools.length > 0) {
    requireKnownTools(catalogue, selection.tools, '--tools');
    const wanted = new Set(selection.tools);
    chosen = catalogue.operations.filter((operation) => wanted.has(operation.toolName));
  } else if (selection.toolsets === undefined || selection.toolsets === 'all') {
    chosen = catalogue.operations;
  } else {
    const unknown = selection.toolsets.filter((name) => !catalogue.toolsets.has(name));
    if (unknown.length > 0) {
      throw new SchoolMcpError(
        'OPENAPI_UNKNOWN_TOOLSET',
        `Unknown toolset${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`,
        { hint: `Valid toolsets: ${[...catalogue.toolsets.keys()].join(', ')}, or "all".` },
      );
    }
    const wanted = new Set(selection.toolsets);
    chosen = catalogue.operations.filter((operation) => wanted.has(operation.toolset));
  }
  if (selection.excludeTools !== undefined && selection.excludeTools.length > 0) {
    requireKnownTools(catalogue, selection.excludeTools, '--exclude-tools');
    const excluded = new Set(selection.excludeTools);
    chosen = chosen.filter((operation) => !excluded.has(operation.toolName));
  }
  if (selection.readOnly === true)
    chosen = readOnlyOperations(chosen, catalogue.scopeRoles, selection.tools !== undefined, warnings);
  return catalogueOf(chosen, { ...catalogue, warnings: [...catalogue.warnings, ...warnings] });
}

function readOnlyOperations(
  operations: readonly Operation[],
  roles: ScopeRoles,
  listedByName: boolean,
  warnings: string[],
): Operation[] {
  const result: Operation[] = [];
  for (const operation of operations) {
    if (!isReadOnlyMethod(operation.method)) {
      if (listedByName) warnings.push(`${operation.toolName} is left out: it changes data and read-only mode is on.`);
      continue;
    }
    result.push(readOnlyVariant(operation, roles));
  }
  return result;
}

/**
 * A read operation without the alternatives that would also let data change, unless every
 * alternative would: its scopes are still accepted by a read, so read-only may ask for them.
 */
function readOnlyVariant(operation: Operation, roles: ScopeRoles): Operation {
  const alternatives = operation.scopeAlternatives.filter((alternative) => !enablesChange(alternative, roles.changes));
  if (alternatives.length === operation.scopeAlternatives.length || alternatives.length === 0) return operation;
  const requiredScopes = narrowestAlternative(alternatives, operation.method, roles);
  return deriveOperation(operation, {
    scopeAlternatives: alternatives,
    requiredScopes,
    description: withScopeLine(operation.description, alternatives, requiredScopes, operation.anonymousAccess === true),
  });
}

function requireKnownTools(catalogue: ToolCatalogue, names: readonly string[], option: string): void {
  const unknown = names.filter((name) => !catalogue.byName.has(name));
  if (unknown.length === 0) return;
  const all = [...catalogue.byName.keys()];
  const near = searchOperations(catalogue, unknown.join(' '), MAX_SUGGESTIONS).map(
    ({ operation }) => operation.toolName,
  );
  const valid =
    all.length <= MAX_LISTED_NAMES
      ? `Valid names: ${all.join(', ')}.`
      : near.length > 0
        ? `Closest of the ${all.length} names: ${near.join(', ')}.`
        : `There are ${all.length} tools; search them by word.`;
  throw new SchoolMcpError(
    'OPENAPI_UNKNOWN_TOOL',
    `Unknown tool name${unknown.length > 1 ? 's' : ''} in ${option}: ${unknown.join(', ')}.`,
    { hint: valid },
  );
}
