/**
 * The catalogue: every operation of a document as a tool, in document order, with its lookup by
 * tool name and its toolsets. Built once per document; each step is linear in the number of
 * operations, and an operation's schemas are converted only when first read, within fixed
 * budgets (API-11).
 */
import { copyCheckingReferences } from './check-references.js';
import { entriesOf, recordOr } from './json-value.js';
import type { Operation } from './operation.js';
import { groupOperations, type GroupingSource } from './grouping.js';
import { arrayOr } from './json-value.js';
import {
  buildOperation,
  enumerateOperations,
  sourceSecurity,
  type OperationPlacement,
  type OperationSource,
} from './operations.js';
import type { ApiDocument } from './parse-document.js';
import { resolveSchema } from './resolve-schema.js';
import { narrowestAlternative, scopeRoles, type ScopedOperation, type ScopeRoles } from './scope-roles.js';
import { resolveApiBase, type ApiBase } from './server-base.js';
import { upgradeToOpenApi3 } from './swagger-upgrade.js';
import { assignToolNames } from './tool-names.js';
import { scopeDescriptions, type SecurityRequirements } from './toolsets.js';

export interface ToolCatalogue {
  /** Document order (paths, then methods in OpenAPI order): stable for a given document. */
  readonly operations: readonly Operation[];
  readonly byName: ReadonlyMap<string, Operation>;
  /** Toolset name → its operations, toolsets sorted by name. */
  readonly toolsets: ReadonlyMap<string, readonly Operation[]>;
  /** Scope → the words the document's oauth2 flows give for it. */
  readonly scopeDescriptions: Readonly<Record<string, string>>;
  /** Where tool paths are appended; present when the catalogue was built for a school URL. */
  readonly apiBase: ApiBase | undefined;
  /** Which scopes grant writes and how far each reaches, from the whole document's operations. */
  readonly scopeRoles: ScopeRoles;
  /** What the toolsets were made from (`grouping.ts`). */
  readonly groupedBy: GroupingSource;
  /** `Swagger 2.0` when the document was upgraded in memory, for an info line. */
  readonly upgradedFrom: string | undefined;
  readonly warnings: readonly string[];
}

export interface CatalogueOptions {
  /** The school's URL: enables `apiBase` and the `servers` checks of API-01. */
  readonly schoolUrl?: string;
  /** Operations beyond this are left out with a warning (API-08). */
  readonly maxOperations?: number;
  /**
   * Receives the warnings found when a tool's schemas are converted, which happens after the
   * build (a tool over its schema budget, say). Without it they join `warnings`.
   */
  readonly onSchemaWarning?: (message: string) => void;
}

export const DEFAULT_MAX_OPERATIONS = 5_000;

/** The same warning is reported once, and at most this many distinct ones are kept. */
const MAX_WARNINGS = 100;

const PUBLIC: SecurityRequirements = { alternatives: [], anonymousAccess: false };

export async function buildCatalogue(document: ApiDocument, options: CatalogueOptions = {}): Promise<ToolCatalogue> {
  const warnings = new Set<string>();
  const warn = (message: string) => {
    if (warnings.size < MAX_WARNINGS) warnings.add(message);
  };
  const { document: upgraded, upgradedFrom } = await upgradeToOpenApi3(document);
  // References are followed where the conversion meets them; the checked copy guarantees that
  // each one is local and that the document holds no object cycle (API-08).
  const checked = copyCheckingReferences(upgraded);
  checked.warnings.forEach(warn);
  const root = checked.copy;
  const components = recordOr(root['components']);
  const securitySchemes = Object.fromEntries(
    entriesOf(components['securitySchemes']).map(([name, scheme]) => [name, resolveSchema(scheme, root)]),
  );
  const security = { rootSecurity: root['security'], securitySchemes };

  const sources = enumerateOperations(root, options.maxOperations ?? DEFAULT_MAX_OPERATIONS, warn);
  const requirements = sources.map((source) => sourceSecurity(source, security));
  const roleSources = sources.map((source, index) => ({
    method: source.method,
    scopeAlternatives: requirements[index]?.alternatives ?? [],
  }));
  const roles = scopeRoles(roleSources);
  const requiredScopes = requirements.map(({ alternatives }, index) =>
    narrowestAlternative(alternatives, sources[index]?.method ?? 'get', roles),
  );
  const grouping = groupOperations(
    sources.map((source, index) => ({
      method: source.method,
      pathTemplate: source.pathTemplate,
      scopeAlternatives: requirements[index]?.alternatives ?? [],
      requiredScopes: requiredScopes[index] ?? [],
      tags: tagsOf(source),
    })),
  );
  const naming = assignToolNames(sources.map(namingInput));
  naming.warnings.forEach(warn);

  const operations: Operation[] = [];
  sources.forEach((source, index) => {
    const placement: OperationPlacement = {
      toolName: naming.names[index] ?? '',
      requiredScopes: requiredScopes[index] ?? [],
      toolset: grouping.toolsets[index] ?? '',
    };
    const operation = tryBuild(source, placement, requirements[index] ?? PUBLIC, {
      root,
      warn,
      schemaWarn: options.onSchemaWarning ?? warn,
    });
    if (operation) operations.push(operation);
  });

  const apiBase = options.schoolUrl === undefined ? undefined : resolveApiBase(root, options.schoolUrl);
  apiBase?.warnings.forEach(warn);
  const catalogue = catalogueOf(operations, {
    scopeDescriptions: scopeDescriptions(securitySchemes),
    apiBase,
    scopeRoles: roles,
    groupedBy: grouping.source,
    upgradedFrom,
    warnings: [...warnings],
  });
  roleSourcesByCatalogue.set(catalogue, roleSources);
  return catalogue;
}

/** Built catalogues → what their scope roles were computed from, which the catalogue cache stores. */
const roleSourcesByCatalogue = new WeakMap<ToolCatalogue, readonly ScopedOperation[]>();

/** What `buildCatalogue` computed the scope roles from; undefined for a catalogue it did not build. */
export function scopeRoleSourcesOf(catalogue: ToolCatalogue): readonly ScopedOperation[] | undefined {
  return roleSourcesByCatalogue.get(catalogue);
}

/** Everything of a catalogue but its operations, which a selection keeps as it is. */
export type CatalogueContext = Omit<ToolCatalogue, 'operations' | 'byName' | 'toolsets'>;

/** A catalogue over a list of operations (also used for selections of a catalogue). */
export function catalogueOf(operations: readonly Operation[], context: CatalogueContext): ToolCatalogue {
  const byName = new Map(operations.map((operation) => [operation.toolName, operation]));
  const grouped = new Map<string, Operation[]>();
  for (const operation of operations) {
    const group = grouped.get(operation.toolset);
    if (group) group.push(operation);
    else grouped.set(operation.toolset, [operation]);
  }
  const toolsets = new Map([...grouped.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { ...context, operations, byName, toolsets };
}

function tagsOf(source: OperationSource): string[] {
  return arrayOr(source.operation['tags']).filter((tag): tag is string => typeof tag === 'string');
}

function namingInput(source: OperationSource) {
  const operationId = source.operation['operationId'];
  return {
    operationId: typeof operationId === 'string' ? operationId : undefined,
    method: source.method,
    pathTemplate: source.pathTemplate,
  };
}

/** One malformed operation costs its own tool, not the catalogue. */
function tryBuild(
  source: OperationSource,
  placement: OperationPlacement,
  requirements: SecurityRequirements,
  context: Parameters<typeof buildOperation>[3],
): Operation | undefined {
  try {
    return buildOperation(source, placement, requirements, context);
  } catch (error) {
    context.warn(
      `Skipped ${source.method.toUpperCase()} ${source.pathTemplate}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}
