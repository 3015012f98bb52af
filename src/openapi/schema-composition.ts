/**
 * Composition in converted schemas made flat where that says the same: hosts handle one object
 * best. Pure; part of the schema converter (`schema-converter.ts`).
 */
import { arrayOr, isRecord, type JsonRecord } from './json-value.js';
import type { JsonSchema } from './operation.js';

/**
 * Merges an `allOf` whose parts are all plain objects into the schema itself, and unwraps
 * single-variant unions, so that hosts see the flat objects most of them handle best.
 */
export function simplifyComposition(schema: JsonSchema): JsonSchema {
  let result = schema;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const variants = result[key];
    if (Array.isArray(variants) && variants.length === 1 && isRecord(variants[0])) {
      const { [key]: _single, ...rest } = result;
      result = mergeObjectSchemas(rest, variants[0]) ?? result;
    }
  }
  const parts = result['allOf'];
  if (!Array.isArray(parts)) return result;
  const { allOf: _parts, ...base } = result;
  let merged: JsonSchema | undefined = base;
  for (const part of parts) {
    merged = merged && isRecord(part) ? mergeObjectSchemas(merged, part) : undefined;
    if (!merged) return result;
  }
  return merged ?? result;
}

const OBJECT_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'description',
  'title',
  'examples',
  'default',
  'deprecated',
  'minProperties',
  'maxProperties',
]);

/** Two schemas as one, when both only describe an object (or nothing at all); else undefined. */
function mergeObjectSchemas(base: JsonSchema, part: JsonSchema): JsonSchema | undefined {
  const objectOnly = (schema: JsonSchema) =>
    Object.keys(schema).every((key) => OBJECT_KEYWORDS.has(key)) &&
    (schema['type'] === undefined || schema['type'] === 'object');
  if (!objectOnly(base) || !objectOnly(part)) return undefined;
  const merged: JsonSchema = { ...part, ...base };
  if (base['type'] === 'object' || part['type'] === 'object') merged['type'] = 'object';
  const properties = { ...recordOrEmpty(base['properties']), ...recordOrEmpty(part['properties']) };
  if (Object.keys(properties).length > 0) merged['properties'] = properties;
  const required = [...new Set([...arrayOr(base['required']), ...arrayOr(part['required'])])];
  if (required.length > 0) merged['required'] = required;
  // The open side wins: a part that forbids extras would otherwise forbid the other part's properties.
  if (base['additionalProperties'] === false && part['additionalProperties'] === false)
    merged['additionalProperties'] = false;
  else delete merged['additionalProperties'];
  return merged;
}

function recordOrEmpty(value: unknown): JsonRecord {
  return isRecord(value) ? value : {};
}
