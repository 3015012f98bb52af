/**
 * The document's paths × methods as `Operation`s. Path templates that could change the request's
 * origin or path once appended (API-02) are skipped with one warning each and never become tools.
 * An operation's schemas are converted when first read (API-11): a catalogue of thousands of
 * operations costs only the schemas of the tools that are listed, described or called.
 * @see SECURITY.md API-02
 * @see SECURITY.md API-11
 */
import { annotationsFor } from './annotations.js';
import { describeOperation, titleFor } from './descriptions.js';
import { userTextFields } from './user-text-fields.js';
import { arrayOr, entriesOf, isRecord, stringOr, type JsonRecord } from './json-value.js';
import type { HttpMethod, Operation } from './operation.js';
import { parameterWarnings } from './parameters.js';
import { pathTemplateProblem } from './path-template.js';
import { resolveSchema } from './resolve-schema.js';
import { buildOperationSchemas, type OperationSchemas } from './tool-schemas.js';
import { securityRequirements, type SecurityRequirements } from './toolsets.js';

/** OpenAPI Path Item Object fields that hold operations, in the specification's order. */
export const HTTP_METHODS: readonly HttpMethod[] = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
];

export interface OperationSource {
  readonly method: HttpMethod;
  readonly pathTemplate: string;
  readonly pathItem: JsonRecord;
  readonly operation: JsonRecord;
}

/** Operations in document order, at most `limit` of them. */
export function enumerateOperations(
  document: JsonRecord,
  limit: number,
  warn: (message: string) => void,
): OperationSource[] {
  const sources: OperationSource[] = [];
  for (const [pathTemplate, rawItem] of entriesOf(document['paths'])) {
    const problem = pathTemplateProblem(pathTemplate);
    if (problem !== undefined) {
      warn(`Skipped path ${JSON.stringify(pathTemplate.slice(0, 200))}: ${problem}.`);
      continue;
    }
    const pathItem = resolveSchema(rawItem, document);
    if (!isRecord(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isRecord(operation)) continue;
      if (sources.length === limit) {
        warn(`The document has more than ${limit} operations; the rest are left out.`);
        return sources;
      }
      sources.push({ method, pathTemplate, pathItem, operation });
    }
  }
  return sources;
}

export interface SecurityContext {
  readonly rootSecurity: unknown;
  readonly securitySchemes: unknown;
}

/** Security of a source; computed before the operations are built so toolsets can ask whether any scope exists. */
export function sourceSecurity(source: OperationSource, security: SecurityContext): SecurityRequirements {
  const own = 'security' in source.operation ? source.operation['security'] : undefined;
  return securityRequirements(own, security.rootSecurity, security.securitySchemes);
}

export interface BuildContext {
  readonly root: JsonRecord;
  readonly warn: (message: string) => void;
  /** Warnings found when an operation's schemas are converted, which happens after the build. */
  readonly schemaWarn: (message: string) => void;
}

/** What the catalogue decides for an operation by looking at all of them: name, scopes to ask for, toolset. */
export interface OperationPlacement {
  readonly toolName: string;
  readonly requiredScopes: readonly string[];
  readonly toolset: string;
}

export function buildOperation(
  source: OperationSource,
  placement: OperationPlacement,
  security: SecurityRequirements,
  context: BuildContext,
): Operation {
  const { method, pathTemplate, pathItem, operation } = source;
  const { alternatives, anonymousAccess } = security;
  const { toolName, requiredScopes, toolset } = placement;
  parameterWarnings(pathTemplate, pathItem['parameters'], operation['parameters'], context.root).forEach(context.warn);
  let conversion: ConvertedSchemas | undefined;
  const convert = () =>
    (conversion ??= convertKeepingWarnings({ toolName, method, pathTemplate, pathItem, operation }, context.root));
  const tags = arrayOr(operation['tags']).filter((tag): tag is string => typeof tag === 'string');
  const summary = stringOr(operation['summary']) ?? stringOr(pathItem['summary']);
  const deprecated = operation['deprecated'] === true;
  const title = titleFor(summary, toolName);
  const converted = reportingOnFirstRead(convert, context.schemaWarn);
  const built: Operation = {
    toolName,
    operationId: stringOr(operation['operationId']),
    method,
    pathTemplate,
    title,
    description: describeOperation({
      toolName,
      summary,
      description: stringOr(operation['description']) ?? stringOr(pathItem['description']),
      deprecated,
      scopeAlternatives: alternatives,
      requiredScopes,
      anonymousAccess,
      // Reads bring other people's words in; a write answers what the agent itself sent.
      ...(method === 'get' ? { userTextFields: userTextFields(operation['responses'], context.root) } : {}),
    }),
    tags,
    get parameters() {
      return converted().parameters;
    },
    get body() {
      return converted().body;
    },
    scopeAlternatives: alternatives,
    requiredScopes,
    ...(anonymousAccess ? { anonymousAccess: true } : {}),
    toolset,
    get inputSchema() {
      return converted().inputSchema;
    },
    get outputSchema() {
      return converted().outputSchema;
    },
    annotations: annotationsFor(method, title),
    deprecated,
  };
  registerConversion(built, convert);
  return built;
}

/** An operation's schemas with the warnings converting them found, not yet reported. */
export interface ConvertedSchemas {
  readonly schemas: OperationSchemas;
  readonly warnings: readonly string[];
}

function convertKeepingWarnings(
  source: Parameters<typeof buildOperationSchemas>[0],
  root: JsonRecord,
): ConvertedSchemas {
  const warnings: string[] = [];
  const schemas = buildOperationSchemas(source, root, (message) => warnings.push(message));
  return { schemas, warnings };
}

/**
 * The schemas for the operation's own getters: what converting them found is reported once, when
 * a tool is first listed, described or called, however often (and by whom) they were converted.
 */
export function reportingOnFirstRead(
  convert: () => ConvertedSchemas,
  report: (message: string) => void,
): () => OperationSchemas {
  let reported = false;
  return () => {
    const { schemas, warnings } = convert();
    if (!reported) {
      reported = true;
      warnings.forEach(report);
    }
    return schemas;
  };
}

/**
 * Built and restored operations → their conversion, for what must not report anything: the
 * catalogue cache, and the list budget reading the sizes the conversion measured.
 */
const quietConversions = new WeakMap<Operation, () => ConvertedSchemas>();

/** Makes `convert` the conversion `convertQuietly` gives for `operation` (a restored catalogue's operations). */
export function registerConversion(operation: Operation, convert: () => ConvertedSchemas): void {
  quietConversions.set(operation, convert);
}

/** Converts an operation's schemas without reporting what that finds; undefined for one neither built nor restored (a derived one). */
export function convertQuietly(operation: Operation): ConvertedSchemas | undefined {
  return quietConversions.get(operation)?.();
}

/**
 * An operation with some fields changed, keeping the others as they are: a spread would read (and
 * so convert) the lazy schemas of every operation it copies.
 */
export function deriveOperation(operation: Operation, changes: Partial<Operation>): Operation {
  return Object.defineProperties(
    {},
    { ...Object.getOwnPropertyDescriptors(operation), ...Object.getOwnPropertyDescriptors(changes) },
  ) as Operation;
}
