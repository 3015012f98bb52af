/**
 * Text to an OpenAPI 3.x (or Swagger 2.0) document object, with no I/O: the pure half of
 * `load-document.ts`.
 * YAML is read with the YAML 1.2 core schema and no custom tags, so a tag such as `!!js/function`
 * stays an inert string; aliases are bounded against expansion attacks, and nesting is bounded
 * before any recursive step sees the document (API-12): see `yaml-text.ts`.
 * @see SECURITY.md API-08
 * @see SECURITY.md API-12
 */
import { BODY_CAPS, isJsonMediaType, mediaTypeOf } from '../network/index.js';
import { SchoolMcpError } from '../errors.js';
import { MAX_DOCUMENT_DEPTH, jsonNestingExceeds, tooDeepError } from './document-depth.js';
import { isRecord, type JsonRecord } from './json-value.js';
import { parseYamlText } from './yaml-text.js';

/** A parsed document: an object whose `openapi` field names a 3.x version. */
export type OpenApiDocument = JsonRecord & { readonly openapi: string };

/** A Swagger 2.0 document, read as it is and upgraded before the catalogue is built (`swagger-upgrade.ts`). */
type Swagger2Document = JsonRecord & { readonly swagger: '2.0' };

export type ApiDocument = OpenApiDocument | Swagger2Document;

export type DocumentFormat = 'json' | 'yaml';

export interface ParsedDocument {
  readonly document: ApiDocument;
  readonly warnings: readonly string[];
}

export interface ParseDocumentOptions {
  /** Where the text came from, for messages (a file path or URL). */
  readonly source: string;
  /** Known format; sniffed from the first character when absent. */
  readonly format?: DocumentFormat;
}

/** API-08: the cap on the document, whether read from a file or the network. */
export const MAX_DOCUMENT_BYTES = BODY_CAPS.openapiDocument;

export function parseDocumentText(text: string, options: ParseDocumentOptions): ParsedDocument {
  const size = Buffer.byteLength(text, 'utf8');
  if (size > MAX_DOCUMENT_BYTES) {
    throw new SchoolMcpError(
      'OPENAPI_TOO_LARGE',
      `The OpenAPI document from ${options.source} is ${size} bytes, over the ${MAX_DOCUMENT_BYTES}-byte cap.`,
      { hint: 'Serve a smaller document, or split the API description.' },
    );
  }
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const format = resolvedFormat(body, options.format);
  const { value, warnings } = format === 'json' ? parseJson(body, options.source) : parseYamlText(body, options.source);
  return { document: validateDocumentShape(value, options.source), warnings };
}

/** The format given, or else sniffed: JSON documents start with `{`; anything else is read as YAML (a superset of JSON anyway). */
export function resolvedFormat(text: string, format: DocumentFormat | undefined): DocumentFormat {
  return format ?? (/^\uFEFF?\s*\{/.test(text) ? 'json' : 'yaml');
}

/** The format a file name announces, if any. */
export function formatFromFileName(name: string): DocumentFormat | undefined {
  const lower = name.toLowerCase();
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml';
  return undefined;
}

/**
 * What a response's `Content-Type` allows: JSON or YAML, `sniff` for the vague types servers
 * often send for static files, `refused` for anything else (an HTML login or error page, say).
 */
export function formatFromMediaType(contentType: string | null): DocumentFormat | 'sniff' | 'refused' {
  const essence = mediaTypeOf(contentType ?? undefined);
  if (essence === '' || essence === 'text/plain' || essence === 'application/octet-stream') return 'sniff';
  if (isJsonMediaType(essence)) return 'json';
  if (
    /^(application|text)\/(x-)?yaml$/.test(essence) ||
    essence.endsWith('+yaml') ||
    essence === 'application/vnd.oai.openapi'
  )
    return 'yaml';
  return 'refused';
}

function validateDocumentShape(value: unknown, source: string): ApiDocument {
  if (!isRecord(value)) {
    throw new SchoolMcpError(
      'OPENAPI_NOT_AN_OBJECT',
      `The OpenAPI document from ${source} is not an object at the top level.`,
      { hint: 'Check that the URL or file is the API description itself, not a page about it.' },
    );
  }
  if (value['swagger'] === '2.0' && !('openapi' in value)) return value as Swagger2Document;
  const version = value['openapi'];
  if (typeof version !== 'string' || !/^3\.\d+(\.\d+)?(-[\w.]+)?$/.test(version)) {
    const swagger = typeof value['swagger'] === 'string';
    throw new SchoolMcpError(
      'OPENAPI_UNSUPPORTED_VERSION',
      swagger
        ? `The document from ${source} is Swagger ${String(value['swagger']).slice(0, 20)}; Swagger 2.0, OpenAPI 3.0 or 3.1 is required.`
        : `The document from ${source} has no "openapi: 3.x" field.`,
      {
        hint: swagger
          ? 'Convert it to OpenAPI 3 and pass it with --openapi FILE.'
          : 'Pass a Swagger 2.0, OpenAPI 3.0 or 3.1 document.',
      },
    );
  }
  return value as OpenApiDocument;
}

function parseJson(text: string, source: string): { value: unknown; warnings: string[] } {
  if (jsonNestingExceeds(text, MAX_DOCUMENT_DEPTH)) throw tooDeepError(source);
  try {
    return { value: JSON.parse(text) as unknown, warnings: [] };
  } catch (error) {
    throw new SchoolMcpError('OPENAPI_SYNTAX', `The OpenAPI document from ${source} is not valid JSON.`, {
      hint: 'Fix the JSON syntax of the document.',
      cause: error,
    });
  }
}
