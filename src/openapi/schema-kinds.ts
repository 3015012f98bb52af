/**
 * What kind of value a schema describes where tools treat it apart: an object, whose properties
 * can become arguments, and a file, which is sent as one. Pure.
 */
import { isRecord, type JsonRecord } from './json-value.js';
import type { JsonSchema } from './operation.js';
import { resolveSchema } from './resolve-schema.js';

export function isObjectSchema(schema: JsonSchema): boolean {
  const type = schema['type'];
  return type === 'object' || (type === undefined && isRecord(schema['properties']));
}

/** Files in OpenAPI: `format: binary` (3.0), a non-text `contentMediaType` (3.1), Swagger's `file`. */
export function isBinarySchema(schema: unknown, root: JsonRecord): boolean {
  const resolved = resolveSchema(schema, root);
  if (!isRecord(resolved)) return false;
  if (resolved['type'] === 'file') return true;
  if (resolved['type'] !== 'string' && resolved['type'] !== undefined) return false;
  if (resolved['format'] === 'binary') return true;
  const mediaType = resolved['contentMediaType'];
  return (
    typeof mediaType === 'string' &&
    resolved['contentEncoding'] === undefined &&
    !/^(text\/|application\/json)/.test(mediaType)
  );
}
