/**
 * The catalogue as the text the catalogue cache stores, and back. Pure: the cache
 * (`catalogue-cache.ts`) does the I/O. Every operation is stored fully converted, with the
 * warnings converting its schemas found, so that a restored catalogue reports them when the tool
 * is first listed, described or called, as a built one does. Its schemas are stored with each
 * repeated subtree once (`shared-subtrees.ts`): a large document's operations repeat the same
 * definitions hundreds of times, and the body's and parameters' schemas again in the input schema.
 * Decoding checks the whole shape and the key: anything unexpected gives undefined, and the
 * catalogue is built from the document.
 * @see SECURITY.md ST-09
 */
import type { ToolCatalogue } from './catalogue.js';
import { catalogueOf } from './catalogue.js';
import { isRecord, type JsonRecord } from './json-value.js';
import type {
  HttpMethod,
  JsonSchema,
  Operation,
  OperationBody,
  OperationParameter,
  ToolAnnotations,
} from './operation.js';
import { HTTP_METHODS, registerConversion, reportingOnFirstRead, type ConvertedSchemas } from './operations.js';
import { MAX_TOOL_SCHEMA_BYTES } from './schema-converter.js';
import { scopeRoles, type ScopedOperation } from './scope-roles.js';
import {
  restoreReferences,
  restoreTable,
  subtreeSharing,
  type RestoredTable,
  type SharingPlan,
} from './shared-subtrees.js';
import { remeasuredSchemas, type OperationSchemas } from './tool-schemas.js';

/** Bumped when what is stored changes meaning; part of the key, so older entries are simply not found. */
export const CATALOGUE_FORMAT = 'catalogue-v2';

/** The fields of a stored operation that hold schemas, and so may hold references to shared subtrees. */
const SCHEMA_FIELDS = ['parameters', 'body', 'inputSchema', 'outputSchema'] as const;

/**
 * What one restored operation's schemas may take, as JSON characters: a built tool's input and
 * output schemas are each at most `MAX_TOOL_SCHEMA_BYTES`, and its parameters and body repeat
 * parts of the input. A few references can stand for far more than that (a table entry that
 * refers twice to the one before it, twenty times over); such a text is not one the encoder wrote.
 */
const MAX_RESTORED_SCHEMA_CHARS = 16 * MAX_TOOL_SCHEMA_BYTES;

/** What is stored beside the operations: the catalogue's context and what parsing the document said. */
export interface CatalogueRecordContext {
  readonly key: string;
  readonly catalogue: ToolCatalogue;
  /** What the scope roles were computed from (`scopeRoles`): every operation the document has. */
  readonly roleSources: readonly ScopedOperation[];
  /** What parsing the document said, which a cached start does not parse. */
  readonly documentWarnings: readonly string[];
}

export interface RestoredCatalogue {
  readonly catalogue: ToolCatalogue;
  readonly documentWarnings: readonly string[];
}

export interface CatalogueEncoder {
  /**
   * Takes in the next operation of the catalogue; false when its schemas hold an object with the
   * key that marks a shared subtree, and the catalogue cannot be stored.
   */
  add(operation: Operation, conversion: ConvertedSchemas): boolean;
  /**
   * Once every operation was added, writes the text one table entry or operation per step, so
   * that a caller can yield between steps; its result is the text, or undefined as soon as the
   * text would be longer than `maxBytes`, before it is ever joined.
   */
  write(): Generator<void, string | undefined>;
}

export function catalogueEncoder(context: CatalogueRecordContext, maxBytes: number): CatalogueEncoder {
  const { catalogue } = context;
  const sharing = subtreeSharing();
  const records: OperationRecord[] = [];
  return {
    add(operation, conversion) {
      const record = operationRecord(operation, conversion);
      if (!SCHEMA_FIELDS.every((field) => sharing.add(record.schemas[field]))) return false;
      records.push(record);
      return true;
    },
    *write() {
      const plan = sharing.plan();
      const head = JSON.stringify({
        format: CATALOGUE_FORMAT,
        key: context.key,
        documentWarnings: context.documentWarnings,
        scopeDescriptions: catalogue.scopeDescriptions,
        apiBase: catalogue.apiBase,
        roleSources: context.roleSources.map(({ method, scopeAlternatives }) => ({ method, scopeAlternatives })),
        groupedBy: catalogue.groupedBy,
        upgradedFrom: catalogue.upgradedFrom,
        warnings: catalogue.warnings,
      });
      // The head loses its closing brace and gains `,"shared":[`, `],"operations":[` and `]}`; each part after the first of a list, a comma.
      let bytes = Buffer.byteLength(head) - 1 + ',"shared":['.length + '],"operations":['.length + ']}'.length;
      const over = (part: string, first: boolean) => {
        bytes += Buffer.byteLength(part) + (first ? 0 : 1);
        return bytes > maxBytes;
      };
      const shared: string[] = [];
      for (const entry of plan.table) {
        const part = plan.stringify(entry, true);
        if (over(part, shared.length === 0)) return undefined;
        shared.push(part);
        yield;
      }
      const operations: string[] = [];
      for (const record of records) {
        const part = operationText(record, plan);
        if (over(part, operations.length === 0)) return undefined;
        operations.push(part);
        yield;
      }
      return `${head.slice(0, -1)},"shared":[${shared.join(',')}],"operations":[${operations.join(',')}]}`;
    },
  };
}

/** An operation's fields apart from its schemas, and its schemas, which the sharing plan writes. */
interface OperationRecord {
  readonly plain: JsonRecord;
  readonly schemas: Readonly<Record<(typeof SCHEMA_FIELDS)[number], unknown>>;
}

function operationRecord(operation: Operation, { schemas, warnings }: ConvertedSchemas): OperationRecord {
  const plain = {
    toolName: operation.toolName,
    operationId: operation.operationId,
    method: operation.method,
    pathTemplate: operation.pathTemplate,
    title: operation.title,
    description: operation.description,
    tags: operation.tags,
    scopeAlternatives: operation.scopeAlternatives,
    requiredScopes: operation.requiredScopes,
    anonymousAccess: operation.anonymousAccess,
    toolset: operation.toolset,
    annotations: operation.annotations,
    deprecated: operation.deprecated,
    schemaBytes: schemas.listedBytes,
    schemaWarnings: warnings,
  };
  return {
    plain,
    schemas: {
      parameters: schemas.parameters,
      body: schemas.body,
      inputSchema: schemas.inputSchema,
      outputSchema: schemas.outputSchema,
    },
  };
}

/** The record's JSON: references only in its schema fields, so that no other field can ever hold one. */
function operationText(record: OperationRecord, plan: SharingPlan): string {
  const schemaFields = SCHEMA_FIELDS.filter((field) => record.schemas[field] !== undefined).map(
    (field) => `,"${field}":${plan.stringify(record.schemas[field])}`,
  );
  return `${JSON.stringify(record.plain).slice(0, -1)}${schemaFields.join('')}}`;
}

/**
 * The catalogue stored in `text` under `key`, or undefined when the text is not exactly what
 * `catalogueEncoder` writes for that key. `onSchemaWarning` receives the stored schema warnings of
 * an operation when its schemas are first read; without it they are dropped, as a built
 * catalogue's are once it is returned.
 */
export function decodeCatalogue(
  text: string,
  key: string,
  onSchemaWarning?: (message: string) => void,
): RestoredCatalogue | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const catalogueFields = [
    'format',
    'key',
    'documentWarnings',
    'scopeDescriptions',
    'apiBase',
    'roleSources',
    'groupedBy',
    'upgradedFrom',
    'warnings',
    'shared',
    'operations',
  ];
  if (!hasOnly(value, catalogueFields) || value['format'] !== CATALOGUE_FORMAT || value['key'] !== key)
    return undefined;
  const { documentWarnings, scopeDescriptions, apiBase, roleSources, groupedBy, upgradedFrom, warnings, operations } =
    value;
  if (!isStrings(documentWarnings) || !isStrings(warnings) || !isStringRecord(scopeDescriptions)) return undefined;
  if (!isOptional(apiBase, isApiBase)) return undefined;
  if (groupedBy !== 'scopes' && groupedBy !== 'tags' && groupedBy !== 'paths') return undefined;
  if (!isOptional(upgradedFrom, isString)) return undefined;
  if (!Array.isArray(roleSources) || !roleSources.every(isRoleSource)) return undefined;
  if (!Array.isArray(operations)) return undefined;
  const shared = restoreTable(value['shared']);
  if (shared === undefined) return undefined;
  const report = onSchemaWarning ?? (() => undefined);
  const restored: Operation[] = [];
  for (const candidate of operations) {
    const operation = restoredOperation(candidate, shared, report);
    if (operation === undefined) return undefined;
    restored.push(operation);
  }
  if (new Set(restored.map((operation) => operation.toolName)).size !== restored.length) return undefined;
  const catalogue = catalogueOf(restored, {
    scopeDescriptions,
    apiBase:
      apiBase === undefined
        ? undefined
        : {
            baseUrl: apiBase.baseUrl,
            origin: apiBase.origin,
            warnings: apiBase.warnings,
          },
    scopeRoles: scopeRoles(roleSources),
    groupedBy,
    upgradedFrom,
    warnings,
  });
  return { catalogue, documentWarnings };
}

const OPERATION_FIELDS = [
  'toolName',
  'operationId',
  'method',
  'pathTemplate',
  'title',
  'description',
  'tags',
  'scopeAlternatives',
  'requiredScopes',
  'anonymousAccess',
  'toolset',
  'annotations',
  'deprecated',
  'parameters',
  'body',
  'inputSchema',
  'outputSchema',
  'schemaBytes',
  'schemaWarnings',
];

/** An operation shaped as `buildOperation` shapes it, its schemas behind the same getters. */
function restoredOperation(
  value: unknown,
  shared: RestoredTable,
  report: (message: string) => void,
): Operation | undefined {
  if (!hasOnly(value, OPERATION_FIELDS)) return undefined;
  let schemaChars = 0;
  const fieldChars: Partial<Record<(typeof SCHEMA_FIELDS)[number], number>> = {};
  for (const field of SCHEMA_FIELDS) {
    if (value[field] === undefined) continue;
    const chars = restoreReferences(value, field, shared);
    if (chars === undefined) return undefined;
    fieldChars[field] = chars;
    schemaChars += chars;
  }
  if (schemaChars > MAX_RESTORED_SCHEMA_CHARS) return undefined;
  // The counted characters are at most the JSON's bytes, so a schema past the budget by them was never written by the encoder (ST-16).
  const listedChars = (fieldChars.inputSchema ?? 0) + (fieldChars.outputSchema ?? 0);
  if ((fieldChars.inputSchema ?? 0) > MAX_TOOL_SCHEMA_BYTES || (fieldChars.outputSchema ?? 0) > MAX_TOOL_SCHEMA_BYTES)
    return undefined;
  const {
    toolName,
    operationId,
    method,
    pathTemplate,
    title,
    description,
    tags,
    scopeAlternatives,
    requiredScopes,
    anonymousAccess,
    toolset,
    annotations,
    deprecated,
  } = value;
  const { parameters, body, inputSchema, outputSchema, schemaBytes, schemaWarnings } = value;
  const plain =
    isString(toolName) &&
    isOptional(operationId, isString) &&
    isMethod(method) &&
    isString(pathTemplate) &&
    isString(title) &&
    isString(description) &&
    isStrings(tags) &&
    isAlternatives(scopeAlternatives) &&
    isStrings(requiredScopes) &&
    (anonymousAccess === undefined || anonymousAccess === true) &&
    isString(toolset) &&
    isAnnotations(annotations) &&
    typeof deprecated === 'boolean';
  if (!plain) return undefined;
  if (
    !Array.isArray(parameters) ||
    !parameters.every(isParameter) ||
    !isOptional(body, isBody) ||
    !isRecord(inputSchema) ||
    !isOptional(outputSchema, isRecord) ||
    !isStrings(schemaWarnings)
  ) {
    return undefined;
  }
  if (
    typeof schemaBytes !== 'number' ||
    !Number.isSafeInteger(schemaBytes) ||
    schemaBytes < listedChars ||
    schemaBytes > 2 * MAX_TOOL_SCHEMA_BYTES
  ) {
    return undefined;
  }
  const stored: OperationSchemas = {
    parameters,
    body,
    inputSchema: inputSchema as JsonSchema,
    outputSchema: outputSchema as JsonSchema | undefined,
    listedBytes: schemaBytes,
  };
  // Measured exactly when first read, as a built tool's are when converted: counting characters here cannot see UTF-8 or escapes.
  let checked: ConvertedSchemas | undefined;
  const conversion = (): ConvertedSchemas => {
    if (checked !== undefined) return checked;
    const found: string[] = [...schemaWarnings];
    const schemas = remeasuredSchemas(stored, toolName, method, (message) => found.push(message));
    return (checked = { schemas, warnings: found });
  };
  const converted = reportingOnFirstRead(conversion, report);
  const restored: Operation = {
    toolName,
    operationId,
    method,
    pathTemplate,
    title,
    description,
    tags,
    get parameters() {
      return converted().parameters;
    },
    get body() {
      return converted().body;
    },
    scopeAlternatives,
    requiredScopes,
    ...(anonymousAccess === true ? { anonymousAccess: true } : {}),
    toolset,
    get inputSchema() {
      return converted().inputSchema;
    },
    get outputSchema() {
      return converted().outputSchema;
    },
    annotations,
    deprecated,
  };
  registerConversion(restored, conversion);
  return restored;
}

function hasOnly(value: unknown, fields: readonly string[]): value is JsonRecord {
  return isRecord(value) && Object.keys(value).every((field) => fields.includes(field));
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every(isString);
}

function isOptional<T>(value: unknown, check: (value: unknown) => value is T): value is T | undefined {
  return value === undefined || check(value);
}

function isOptionalBoolean(value: unknown): boolean {
  return value === undefined || typeof value === 'boolean';
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every(isString);
}

function isMethod(value: unknown): value is HttpMethod {
  return HTTP_METHODS.some((method) => method === value);
}

function isApiBase(value: unknown): value is { baseUrl: string; origin: string; warnings: string[] } {
  return (
    hasOnly(value, ['baseUrl', 'origin', 'warnings']) &&
    isString(value['baseUrl']) &&
    isString(value['origin']) &&
    isStrings(value['warnings'])
  );
}

function isAlternatives(value: unknown): value is string[][] {
  return Array.isArray(value) && value.every(isStrings);
}

function isRoleSource(value: unknown): value is ScopedOperation {
  return (
    hasOnly(value, ['method', 'scopeAlternatives']) &&
    isMethod(value['method']) &&
    isAlternatives(value['scopeAlternatives'])
  );
}

function isAnnotations(value: unknown): value is ToolAnnotations {
  const hints = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];
  return (
    hasOnly(value, ['title', ...hints]) &&
    isOptional(value['title'], isString) &&
    hints.every((hint) => isOptionalBoolean(value[hint]))
  );
}

const LOCATIONS = ['path', 'query', 'header', 'cookie'];

function isParameter(value: unknown): value is OperationParameter {
  return (
    hasOnly(value, ['name', 'argument', 'in', 'required', 'schema', 'style', 'explode', 'allowReserved']) &&
    isString(value['name']) &&
    isString(value['argument']) &&
    LOCATIONS.some((location) => location === value['in']) &&
    typeof value['required'] === 'boolean' &&
    isRecord(value['schema']) &&
    isOptional(value['style'], isString) &&
    isOptionalBoolean(value['explode']) &&
    isOptionalBoolean(value['allowReserved'])
  );
}

function isBody(value: unknown): value is OperationBody {
  return (
    hasOnly(value, [
      'contentType',
      'required',
      'schema',
      'mode',
      'argument',
      'propertyArguments',
      'fileProperties',
      'file',
    ]) &&
    isString(value['contentType']) &&
    typeof value['required'] === 'boolean' &&
    isRecord(value['schema']) &&
    (value['mode'] === 'merged' || value['mode'] === 'wrapped') &&
    isOptional(value['argument'], isString) &&
    isOptional(value['propertyArguments'], isStringRecord) &&
    isOptional(value['fileProperties'], isStrings) &&
    isOptionalBoolean(value['file'])
  );
}
