/**
 * The catalogue as the text the catalogue cache stores: its format, the fields of the catalogue
 * and of each operation, and the shape each stored field must have. Every operation is stored
 * fully converted, with the warnings converting its schemas found, so that a restored catalogue
 * reports them when the tool is first listed, described or called, as a built one does; its
 * schemas are stored with each repeated subtree once (`shared-subtrees.ts`). The encoder
 * (`catalogue-encoder.ts`) writes this format, the decoder (`catalogue-decoder.ts`) accepts
 * nothing else. Pure: the cache (`catalogue-cache.ts`) does the I/O.
 * @see SECURITY.md ST-09
 */
import { isRecord, type JsonRecord } from './json-value.js';
import type { HttpMethod, OperationBody, OperationParameter, ToolAnnotations } from './operation.js';
import { HTTP_METHODS } from './operations.js';
import type { ScopedOperation } from './scope-roles.js';

/** Bumped when what is stored changes meaning; part of the key, so older entries are simply not found. */
export const CATALOGUE_FORMAT = 'catalogue-v2';

/** The fields of a stored operation that hold schemas, and so may hold references to shared subtrees. */
export const SCHEMA_FIELDS = ['parameters', 'body', 'inputSchema', 'outputSchema'] as const;

export type SchemaField = (typeof SCHEMA_FIELDS)[number];

/** The fields of the stored catalogue, beside which there may be none. */
export const CATALOGUE_FIELDS = [
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

/** The fields of a stored operation, beside which there may be none. */
export const OPERATION_FIELDS = [
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

export function hasOnly(value: unknown, fields: readonly string[]): value is JsonRecord {
  return isRecord(value) && Object.keys(value).every((field) => fields.includes(field));
}

export function isString(value: unknown): value is string {
  return typeof value === 'string';
}

export function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every(isString);
}

export function isOptional<T>(value: unknown, check: (value: unknown) => value is T): value is T | undefined {
  return value === undefined || check(value);
}

function isOptionalBoolean(value: unknown): boolean {
  return value === undefined || typeof value === 'boolean';
}

export function isStringRecord(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every(isString);
}

export function isMethod(value: unknown): value is HttpMethod {
  return HTTP_METHODS.some((method) => method === value);
}

export function isAlternatives(value: unknown): value is string[][] {
  return Array.isArray(value) && value.every(isStrings);
}

export function isRoleSource(value: unknown): value is ScopedOperation {
  return (
    hasOnly(value, ['method', 'scopeAlternatives']) &&
    isMethod(value['method']) &&
    isAlternatives(value['scopeAlternatives'])
  );
}

export function isAnnotations(value: unknown): value is ToolAnnotations {
  const hints = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];
  return (
    hasOnly(value, ['title', ...hints]) &&
    isOptional(value['title'], isString) &&
    hints.every((hint) => isOptionalBoolean(value[hint]))
  );
}

const LOCATIONS = ['path', 'query', 'header', 'cookie'];

export function isParameter(value: unknown): value is OperationParameter {
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

export function isBody(value: unknown): value is OperationBody {
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

/** The API base of a stored catalogue: where the school token goes, so checked field by field (ST-15). */
export function isApiBase(value: unknown): value is { baseUrl: string; origin: string; warnings: string[] } {
  return (
    hasOnly(value, ['baseUrl', 'origin', 'warnings']) &&
    isString(value['baseUrl']) &&
    isString(value['origin']) &&
    isStrings(value['warnings'])
  );
}
