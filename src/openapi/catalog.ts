/**
 * The catalogue: every operation of a document as a tool, in document order, with its lookup by
 * tool name and its toolsets. Built once per document; each step is linear in the number of
 * operations, and an operation's schemas are converted only when first read, within fixed
 * budgets (API-11).
 */
import { copyCheckingReferences } from './check-references.js';
import { entriesOf, recordOr } from './json-value.js';
import type { Operation } from './operation.js';
import { buildOperation, enumerateOperations, sourceSecurity, type OperationSource } from './operations.js';
import type { OpenApiDocument } from './parse-document.js';
import { resolveSchema } from './schema-converter.js';
import { resolveApiBase, type ApiBase } from './server-base.js';
import { assignToolNames } from './tool-names.js';
import { scopeRoles } from './scope-roles.js';
import { scopeDescriptions, type SecurityRequirements } from './toolsets.js';

export interface ToolCatalog {
  /** Document order (paths, then methods in OpenAPI order): stable for a given document. */
  readonly operations: readonly Operation[];
  readonly byName: ReadonlyMap<string, Operation>;
  /** Toolset name → its operations, toolsets sorted by name. */
  readonly toolsets: ReadonlyMap<string, readonly Operation[]>;
  /** Scope → the words the document's oauth2 flows give for it. */
  readonly scopeDescriptions: Readonly<Record<string, string>>;
  /** Where tool paths are appended; present when the catalogue was built for a school URL. */
  readonly apiBase: ApiBase | undefined;
  readonly warnings: readonly string[];
}

export interface CatalogOptions {
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

export async function buildCatalog(document: OpenApiDocument, options: CatalogOptions = {}): Promise<ToolCatalog> {
  const warnings: string[] = [];
  const seen = new Set<string>();
  const warn = (message: string) => {
    if (seen.size >= MAX_WARNINGS || seen.has(message)) return;
    seen.add(message);
    warnings.push(message);
  };
  // References are followed where the conversion meets them; the checked copy guarantees that
  // each one is local and that the document holds no object cycle (API-08).
  const checked = copyCheckingReferences(document);
  checked.warnings.forEach(warn);
  const root = checked.copy;
  const components = recordOr(root['components']);
  const securitySchemes = Object.fromEntries(entriesOf(components['securitySchemes']).map(([name, scheme]) => [name, resolveSchema(scheme, root)]));
  const security = { rootSecurity: root['security'], securitySchemes };

  const sources = enumerateOperations(root, options.maxOperations ?? DEFAULT_MAX_OPERATIONS, warn);
  const requirements = sources.map((source) => sourceSecurity(source, security));
  const documentHasScopes = requirements.some(({ alternatives }) => alternatives.some((alternative) => alternative.length > 0));
  const names = assignToolNames(sources.map(namingInput));
  const { changes } = scopeRoles(sources.map((source, index) => ({ method: source.method, scopeAlternatives: requirements[index]?.alternatives ?? [] })));

  const operations: Operation[] = [];
  sources.forEach((source, index) => {
    const operation = tryBuild(source, names[index] ?? '', requirements[index] ?? PUBLIC, { root, documentHasScopes, changes, warn, schemaWarn: options.onSchemaWarning ?? warn });
    if (operation) operations.push(operation);
  });

  const apiBase = options.schoolUrl === undefined ? undefined : resolveApiBase(root, options.schoolUrl);
  apiBase?.warnings.forEach(warn);
  return catalogOf(operations, scopeDescriptions(securitySchemes), apiBase, warnings);
}

/** A catalogue over a list of operations (also used for selections of a catalogue). */
export function catalogOf(
  operations: readonly Operation[],
  scopes: Readonly<Record<string, string>>,
  apiBase: ApiBase | undefined,
  warnings: readonly string[],
): ToolCatalog {
  const byName = new Map(operations.map((operation) => [operation.toolName, operation]));
  const grouped = new Map<string, Operation[]>();
  for (const operation of operations) {
    const group = grouped.get(operation.toolset);
    if (group) group.push(operation);
    else grouped.set(operation.toolset, [operation]);
  }
  const toolsets = new Map([...grouped.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { operations, byName, toolsets, scopeDescriptions: scopes, apiBase, warnings };
}

function namingInput(source: OperationSource) {
  const operationId = source.operation['operationId'];
  return { operationId: typeof operationId === 'string' ? operationId : undefined, method: source.method, pathTemplate: source.pathTemplate };
}

/** One malformed operation costs its own tool, not the catalogue. */
function tryBuild(
  source: OperationSource,
  toolName: string,
  requirements: SecurityRequirements,
  context: Parameters<typeof buildOperation>[3],
): Operation | undefined {
  try {
    return buildOperation(source, toolName, requirements, context);
  } catch (error) {
    context.warn(`Skipped ${source.method.toUpperCase()} ${source.pathTemplate}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}
