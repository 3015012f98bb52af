/**
 * The catalogue back from the text the catalogue cache stores (`catalogue-record.ts`). Decoding
 * checks the whole shape and the key: anything unexpected gives undefined, and the catalogue is
 * built from the document. A restored operation's schemas are measured again when first read, as
 * a built one's are when converted. Pure: the cache (`catalogue-cache.ts`) reads the text.
 * @see SECURITY.md ST-09
 */
import type { ToolCatalogue } from './catalogue.js';
import { catalogueOf } from './catalogue.js';
import {
  CATALOGUE_FIELDS,
  CATALOGUE_FORMAT,
  OPERATION_FIELDS,
  SCHEMA_FIELDS,
  hasOnly,
  isAlternatives,
  isAnnotations,
  isApiBase,
  isBody,
  isMethod,
  isOptional,
  isParameter,
  isRoleSource,
  isString,
  isStringRecord,
  isStrings,
  type SchemaField,
} from './catalogue-record.js';
import { isRecord } from './json-value.js';
import type { JsonSchema, Operation } from './operation.js';
import { registerConversion, reportingOnFirstRead, type ConvertedSchemas } from './operations.js';
import { MAX_TOOL_SCHEMA_BYTES } from './schema-budget.js';
import { scopeRoles } from './scope-roles.js';
import { restoreReferences, restoreTable, type RestoredTable } from './shared-subtrees.js';
import { remeasuredSchemas, type OperationSchemas } from './tool-schemas.js';

/**
 * What one restored operation's schemas may take, as JSON characters: a built tool's input and
 * output schemas are each at most `MAX_TOOL_SCHEMA_BYTES`, and its parameters and body repeat
 * parts of the input. A few references can stand for far more than that (a table entry that
 * refers twice to the one before it, twenty times over); such a text is not one the encoder wrote.
 */
const MAX_RESTORED_SCHEMA_CHARS = 16 * MAX_TOOL_SCHEMA_BYTES;

export interface RestoredCatalogue {
  readonly catalogue: ToolCatalogue;
  readonly documentWarnings: readonly string[];
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
  if (!hasOnly(value, CATALOGUE_FIELDS) || value['format'] !== CATALOGUE_FORMAT || value['key'] !== key)
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

/** An operation shaped as `buildOperation` shapes it, its schemas behind the same getters. */
function restoredOperation(
  value: unknown,
  shared: RestoredTable,
  report: (message: string) => void,
): Operation | undefined {
  if (!hasOnly(value, OPERATION_FIELDS)) return undefined;
  let schemaChars = 0;
  const fieldChars: Partial<Record<SchemaField, number>> = {};
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
