/**
 * Text to an OpenAPI 3.x document object, with no I/O: the pure half of `load-document.ts`.
 * YAML is read with the YAML 1.2 core schema and no custom tags, so a tag such as `!!js/function`
 * stays an inert string; aliases are bounded against expansion attacks.
 * @see SECURITY.md API-08
 */
import { BODY_CAPS } from '../network/index.js';
import { createRequire } from 'node:module';
import { isRecord, type JsonRecord } from './json-value.js';
import { openApiError } from './openapi-error.js';

/** A parsed document: an object whose `openapi` field names a 3.x version. */
export type OpenApiDocument = JsonRecord & { readonly openapi: string };

export type DocumentFormat = 'json' | 'yaml';

export interface ParsedDocument {
  readonly document: OpenApiDocument;
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

/** YAML aliases a document may expand; far above what real documents use. */
const MAX_YAML_ALIASES = 1_000;

export function parseDocumentText(text: string, options: ParseDocumentOptions): ParsedDocument {
  const size = Buffer.byteLength(text, 'utf8');
  if (size > MAX_DOCUMENT_BYTES) {
    throw openApiError(
      'OPENAPI_TOO_LARGE',
      `The OpenAPI document from ${options.source} is ${size} bytes, over the ${MAX_DOCUMENT_BYTES}-byte cap.`,
      'Serve a smaller document, or split the API description.',
    );
  }
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const format = options.format ?? sniffFormat(body);
  const { value, warnings } = format === 'json' ? parseJson(body, options.source) : parseYamlText(body, options.source);
  return { document: validateDocumentShape(value, options.source), warnings };
}

/** JSON documents start with `{`; anything else is read as YAML (a superset of JSON anyway). */
export function sniffFormat(text: string): DocumentFormat {
  return /^\s*\{/.test(text) ? 'json' : 'yaml';
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
  const essence = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (essence === '' || essence === 'text/plain' || essence === 'application/octet-stream') return 'sniff';
  if (essence === 'application/json' || essence.endsWith('+json')) return 'json';
  if (/^(application|text)\/(x-)?yaml$/.test(essence) || essence.endsWith('+yaml') || essence === 'application/vnd.oai.openapi') return 'yaml';
  return 'refused';
}

export function validateDocumentShape(value: unknown, source: string): OpenApiDocument {
  if (!isRecord(value)) {
    throw openApiError(
      'OPENAPI_NOT_AN_OBJECT',
      `The OpenAPI document from ${source} is not an object at the top level.`,
      'Check that the URL or file is the API description itself, not a page about it.',
    );
  }
  const version = value['openapi'];
  if (typeof version !== 'string' || !/^3\.\d+(\.\d+)?(-[\w.]+)?$/.test(version)) {
    const swagger = typeof value['swagger'] === 'string';
    throw openApiError(
      'OPENAPI_UNSUPPORTED_VERSION',
      swagger
        ? `The document from ${source} is Swagger ${String(value['swagger'])}; OpenAPI 3.0 or 3.1 is required.`
        : `The document from ${source} has no "openapi: 3.x" field.`,
      swagger ? 'Convert it to OpenAPI 3 (for example with swagger2openapi) and pass it with --openapi.' : 'Pass an OpenAPI 3.0 or 3.1 document.',
    );
  }
  return value as OpenApiDocument;
}

function parseJson(text: string, source: string): { value: unknown; warnings: string[] } {
  try {
    return { value: JSON.parse(text) as unknown, warnings: [] };
  } catch (error) {
    throw openApiError('OPENAPI_SYNTAX', `The OpenAPI document from ${source} is not valid JSON.`, 'Fix the JSON syntax of the document.', error);
  }
}

// Loaded only for a YAML document: schools serve JSON, and the YAML parser is a large module.
const requireModule = createRequire(import.meta.url);
let yamlModule: typeof import('yaml') | undefined;

function parseYamlText(text: string, source: string): { value: unknown; warnings: string[] } {
  yamlModule ??= requireModule('yaml') as typeof import('yaml');
  const yaml = yamlModule.parseDocument(text, { schema: 'core', customTags: [], uniqueKeys: true, prettyErrors: false });
  const firstError = yaml.errors[0];
  if (firstError) {
    throw openApiError(
      'OPENAPI_SYNTAX',
      `The OpenAPI document from ${source} is neither valid JSON nor valid YAML: ${firstError.message}`,
      'Fix the document syntax.',
      firstError,
    );
  }
  try {
    const value: unknown = yaml.toJS({ maxAliasCount: MAX_YAML_ALIASES });
    return { value, warnings: yaml.warnings.map((warning) => `YAML in ${source}: ${warning.message}`) };
  } catch (error) {
    throw openApiError('OPENAPI_SYNTAX', `The YAML document from ${source} expands too many aliases.`, 'Remove the YAML aliases.', error);
  }
}
