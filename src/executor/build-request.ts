/**
 * Tool arguments become one HTTP request on the API origin. Pure: nothing is sent, every refusal
 * is thrown before the network is touched. Cookie parameters are never sent: arguments cannot set
 * `Cookie` (API-05). Arguments the operation does not declare are never read.
 * @see SECURITY.md API-02, API-03, API-04, API-05
 */
import { randomBytes } from 'node:crypto';
import type { Operation, OperationParameter } from '../openapi/index.js';
import { SchoolMcpError } from '../errors.js';
import { inputError } from './executor-error.js';
import { encodePathSegment, serializeHeaderValue, serializePathValue, serializeQueryValue } from './parameter-style.js';
import { collectBodyValue, encodeBody } from './body-encoding.js';

export interface PlannedRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
}

export interface BuildRequestOptions {
  /** Cap on the decoded bytes of all files in one call. */
  readonly maxUploadBytes?: number;
  readonly multipartBoundary?: string;
}

export const DEFAULT_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** A path value longer than this (UTF-8 bytes) is refused: no real id is that long. */
const MAX_PATH_VALUE_BYTES = 1024;

/**
 * Headers that arguments can never set (API-05): credentials, routing, framing and hop-by-hop
 * headers (RFC 9110 §7.6.1), and those OpenAPI says a header parameter SHALL NOT define.
 */
const FORBIDDEN_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'accept',
  'content-type',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
]);

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FORBIDDEN_IN_PATH_VALUE = /[\u0000-\u001f\u007f]/;
/** RFC 9110 §5.5: field values never carry CR, LF or NUL; other controls are refused as well. */
const FORBIDDEN_IN_HEADER_VALUE = /[\u0000-\u0008\u000a-\u001f\u007f]/;

export interface ApiBase {
  readonly origin: string;
  /** The path prefix without a trailing slash; `''` for none. */
  readonly basePath: string;
}

export function parseApiBase(apiBaseUrl: string): ApiBase {
  const url = URL.canParse(apiBaseUrl) ? new URL(apiBaseUrl) : undefined;
  if (
    url === undefined ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.username !== '' ||
    url.password !== '' ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    throw new SchoolMcpError(
      'API_URL_REFUSED',
      'The API base URL must be an http(s) origin with an optional path, without credentials, query or fragment.',
      {
        hint: 'Check the configured school URL.',
      },
    );
  }
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
}

export function buildRequest(
  operation: Operation,
  args: Readonly<Record<string, unknown>>,
  apiBaseUrl: string,
  options: BuildRequestOptions = {},
): PlannedRequest {
  const base = parseApiBase(apiBaseUrl);
  const path = expandPath(operation, args);
  const query = operation.parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => serializeQueryValue(parameter, args[parameter.argument]))
    .filter((pair) => pair !== '')
    .join('&');
  // API-02: appended by concatenation, never resolved against the base.
  const url = `${base.origin}${base.basePath}${path}${query === '' ? '' : `?${query}`}`;
  assertUrlStaysOnApi(url, base, base.basePath + path, query);

  const headers: Record<string, string> = {
    accept: 'application/json, */*;q=0.5',
    ...headerArguments(operation, args),
  };
  const request = { url, method: operation.method.toUpperCase(), headers };
  if (operation.body === undefined) return request;
  const value = collectBodyValue(operation.body, args);
  if (value === undefined) return request;
  const encoded = encodeBody(operation.body, value, {
    maxUploadBytes: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
    multipartBoundary: options.multipartBoundary ?? `school-mcp-${randomBytes(16).toString('hex')}`,
  });
  headers['content-type'] = encoded.contentType;
  return { ...request, body: encoded.content };
}

function expandPath(operation: Operation, args: Readonly<Record<string, unknown>>): string {
  return operation.pathTemplate.replace(/\{([^{}]*)\}/g, (_match, name: string) => {
    const parameter = operation.parameters.find((candidate) => candidate.in === 'path' && candidate.name === name);
    if (parameter === undefined) {
      throw new SchoolMcpError(
        'API_URL_REFUSED',
        `The path template of ${operation.toolName} names {${name}}, which no path parameter defines.`,
        {
          hint: "The school's OpenAPI document is inconsistent; report it to the school.",
        },
      );
    }
    const value = args[parameter.argument];
    if (value === undefined || value === null) throw inputError(`"${parameter.argument}" is required.`);
    assertSafePathValue(
      parameter,
      serializePathValue(parameter, value, (text) => text),
    );
    return serializePathValue(parameter, value, encodePathSegment);
  });
}

/** API-03: values the URL parser would collapse or that no id needs, refused before encoding. */
function assertSafePathValue(parameter: OperationParameter, raw: string): void {
  const argument = parameter.argument;
  if (raw === '' || raw === '.' || raw === '..') {
    throw inputError(`"${argument}" must not be empty, "." or "..".`);
  }
  if (FORBIDDEN_IN_PATH_VALUE.test(raw)) throw inputError(`"${argument}" must not contain control characters.`);
  if (Buffer.byteLength(raw, 'utf8') > MAX_PATH_VALUE_BYTES) {
    throw inputError(`"${argument}" is longer than ${MAX_PATH_VALUE_BYTES} bytes.`);
  }
}

/**
 * API-02/API-03 post-condition: parse what we built and require the API origin, the base path as
 * a prefix, and a path and query the parser left byte-for-byte as we built them.
 */
function assertUrlStaysOnApi(url: string, base: ApiBase, builtPath: string, builtQuery: string): void {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  const stays =
    parsed !== undefined &&
    hasOnlyProperSegments(builtPath) &&
    parsed.origin === base.origin &&
    parsed.username === '' &&
    parsed.password === '' &&
    parsed.pathname.startsWith(`${base.basePath}/`) &&
    parsed.pathname === builtPath &&
    parsed.search === (builtQuery === '' ? '' : `?${builtQuery}`) &&
    parsed.hash === '';
  if (!stays) {
    throw new SchoolMcpError(
      'API_URL_REFUSED',
      'The request URL would leave the API origin or base path, or be rewritten by URL parsing.',
      {
        hint: 'Check the path arguments; ids never contain "..", "?" or "#".',
      },
    );
  }
}

/** No empty, `.` or `..` segment (in any percent-encoded spelling); a trailing slash is allowed. */
function hasOnlyProperSegments(path: string): boolean {
  const segments = path.split('/').slice(1);
  return segments.every(
    (segment, index) => (segment !== '' || index === segments.length - 1) && !/^(?:\.|%2e){1,2}$/i.test(segment),
  );
}

function headerArguments(operation: Operation, args: Readonly<Record<string, unknown>>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'header') continue;
    const value = args[parameter.argument];
    if (value === undefined || value === null) continue;
    const name = parameter.name.toLowerCase();
    if (FORBIDDEN_HEADERS.has(name) || !HEADER_NAME.test(name)) continue;
    const text = serializeHeaderValue(parameter, value);
    if (FORBIDDEN_IN_HEADER_VALUE.test(text)) {
      throw inputError(`"${parameter.argument}" must not contain CR, LF, NUL or other control characters.`);
    }
    headers[name] = text;
  }
  return headers;
}
