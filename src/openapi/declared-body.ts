/**
 * The request body an operation takes: which media type is sent, and the body's schema as tool
 * input. JSON is preferred, then multipart and form bodies (which the executor can build from
 * arguments), then anything else. Multipart file fields become file arguments (`FILE_ARGUMENT_SCHEMA`).
 */
import { isJsonMediaType, mediaTypeOf } from '../network/index.js';
import { entriesOf, isRecord, type JsonRecord } from './json-value.js';
import type { JsonSchema } from './operation.js';
import { resolveSchema } from './resolve-schema.js';
import { INPUT_BUDGET, type SchemaMeter } from './schema-budget.js';
import { convertSchema } from './schema-converter.js';
import { isBinarySchema, isObjectSchema } from './schema-kinds.js';

export interface DeclaredBody {
  readonly contentType: string;
  readonly required: boolean;
  /** The body's input schema (an object for multipart and forms). */
  readonly schema: JsonSchema;
  /** Multipart: body properties that carry files. */
  readonly fileProperties: readonly string[];
  /** The whole body is one file's bytes (e.g. `application/octet-stream`). */
  readonly isFile: boolean;
}

/** How a file travels in tool input: a file name and base64 content (multipart uploads). */
const FILE_ARGUMENT_SCHEMA: JsonSchema = Object.freeze({
  type: 'object',
  description: 'A file: its name and its content encoded as base64.',
  properties: {
    filename: { type: 'string', minLength: 1, maxLength: 255, description: 'The file name, e.g. "syllabus.pdf".' },
    content_base64: { type: 'string', contentEncoding: 'base64', description: 'The file content, base64-encoded.' },
    content_type: {
      type: 'string',
      description: 'The media type, e.g. "application/pdf". Guessed from the name when absent.',
    },
  },
  required: ['filename', 'content_base64'],
  additionalProperties: false,
});

export function declaredBody(requestBody: unknown, root: JsonRecord, meter: SchemaMeter): DeclaredBody | undefined {
  const body = resolveSchema(requestBody, root);
  if (!isRecord(body)) return undefined;
  const media = chooseMediaType(body['content']);
  if (!media) return undefined;
  const [contentType, mediaObject] = media;
  const required = body['required'] === true;
  const rawSchema = isRecord(mediaObject) ? mediaObject['schema'] : undefined;
  const kind = mediaKind(contentType);
  if (
    kind === 'other' &&
    (isBinarySchema(rawSchema, root) || rawSchema === undefined) &&
    !contentType.startsWith('text/')
  ) {
    return { contentType, required, schema: fileArgumentSchema(), fileProperties: [], isFile: true };
  }
  const schema = convertSchema(rawSchema, root, 'input', INPUT_BUDGET, meter);
  if (kind !== 'multipart' && kind !== 'form')
    return { contentType, required, schema, fileProperties: [], isFile: false };
  return withFileProperties(contentType, required, rawSchema, schema, root);
}

function withFileProperties(
  contentType: string,
  required: boolean,
  rawSchema: unknown,
  schema: JsonSchema,
  root: JsonRecord,
): DeclaredBody {
  const rawProperties = isRecord(resolveSchema(rawSchema, root))
    ? (resolveSchema(rawSchema, root) as JsonRecord)['properties']
    : undefined;
  const properties = isRecord(schema['properties'])
    ? { ...(schema['properties'] as Record<string, JsonSchema>) }
    : undefined;
  const fileProperties: string[] = [];
  if (properties && isObjectSchema(schema)) {
    for (const [name, rawProperty] of entriesOf(rawProperties)) {
      if (!(name in properties) || !isBinarySchema(rawProperty, root)) continue;
      const description = (properties[name] ?? {})['description'];
      properties[name] = { ...fileArgumentSchema(), ...(typeof description === 'string' ? { description } : {}) };
      fileProperties.push(name);
    }
  }
  return {
    contentType,
    required,
    schema: properties ? { ...schema, properties } : schema,
    fileProperties,
    isFile: false,
  };
}

/** A fresh copy, so no two tools share (and so could alter) one schema object. */
export function fileArgumentSchema(): JsonSchema {
  return structuredClone(FILE_ARGUMENT_SCHEMA) as JsonSchema;
}

type MediaKind = 'json' | 'multipart' | 'form' | 'other';

function mediaKind(contentType: string): MediaKind {
  const essence = mediaTypeOf(contentType);
  if (isJsonMediaType(essence)) return 'json';
  if (essence === 'multipart/form-data') return 'multipart';
  if (essence === 'application/x-www-form-urlencoded') return 'form';
  return 'other';
}

const KIND_PREFERENCE: readonly MediaKind[] = ['json', 'multipart', 'form', 'other'];

function chooseMediaType(content: unknown): [string, unknown] | undefined {
  const entries = entriesOf(content).filter(([type]) => !type.includes('*') || type === '*/*');
  for (const kind of KIND_PREFERENCE) {
    const match = entries.find(([type]) => mediaKind(type) === kind);
    if (match) return match[0] === '*/*' ? ['application/octet-stream', match[1]] : match;
  }
  return undefined;
}
