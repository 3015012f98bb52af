/**
 * OpenAPI parameter serialisation (3.1 §4.8.12.4 "Style Values"): path (simple, label, matrix),
 * query (form, spaceDelimited, pipeDelimited, deepObject) and header (simple) values as text.
 * Pure. Names and values are encoded; the style's delimiters are not, so that a comma inside a
 * value stays distinguishable from a comma between values.
 */
import type { OperationParameter } from '../openapi/index.js';

type Encode = (text: string) => string;
type Entry = readonly [key: string, value: string];

/**
 * `application/x-www-form-urlencoded` byte serialisation, identical to `URLSearchParams`: only
 * ASCII alphanumerics and `*-._` stay literal, space becomes `+` (API-04).
 */
export function encodeFormComponent(text: string): string {
  return encodeURIComponent(wellFormed(text))
    .replace(/[!'()~]/g, percentEncodeChar)
    .replace(/%20/g, '+');
}

/**
 * One path segment: everything outside RFC 3986 unreserved is encoded, so `/`, `?`, `#`, `%`
 * and `\` can never act as delimiters. Dot segments are refused elsewhere, since `%2E` is a dot to
 * the WHATWG URL parser as well (API-03).
 */
export function encodePathSegment(text: string): string {
  return encodeURIComponent(wellFormed(text)).replace(/[!'()*]/g, percentEncodeChar);
}

function percentEncodeChar(char: string): string {
  return `%${char.charCodeAt(0).toString(16).toUpperCase()}`;
}

/** Lone surrogates become U+FFFD, as `URLSearchParams` does, instead of `encodeURIComponent` throwing. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectEntries(value: Record<string, unknown>): Entry[] {
  return Object.entries(value)
    .filter(([, item]) => item !== undefined && item !== null)
    .map(([key, item]) => [key, scalarText(item)] as const);
}

function arrayItems(value: readonly unknown[]): string[] {
  return value.filter((item) => item !== undefined && item !== null).map(scalarText);
}

/**
 * A path value in the parameter's style, passed through `encode` (identity to inspect the raw
 * text, `encodePathSegment` to send it).
 */
export function serializePathValue(parameter: OperationParameter, value: unknown, encode: Encode): string {
  const style = parameter.style ?? 'simple';
  const explode = parameter.explode ?? false;
  const name = encode(parameter.name);
  if (Array.isArray(value)) {
    const items = arrayItems(value).map(encode);
    if (style === 'label') return `.${items.join(explode ? '.' : ',')}`;
    if (style === 'matrix')
      return explode ? items.map((item) => `;${name}=${item}`).join('') : `;${name}=${items.join(',')}`;
    return items.join(',');
  }
  if (isPlainObject(value)) {
    const entries = objectEntries(value).map(([key, item]) => [encode(key), encode(item)] as const);
    const pairs = entries.map(([key, item]) => (explode ? `${key}=${item}` : `${key},${item}`));
    if (style === 'label') return `.${pairs.join(explode ? '.' : ',')}`;
    if (style === 'matrix')
      return explode ? entries.map(([key, item]) => `;${key}=${item}`).join('') : `;${name}=${pairs.join(',')}`;
    return pairs.join(',');
  }
  const text = encode(scalarText(value));
  if (style === 'label') return `.${text}`;
  if (style === 'matrix') return `;${name}=${text}`;
  return text;
}

/** A query parameter as `name=value` pairs joined by `&`; `''` when there is nothing to send. */
export function serializeQueryValue(parameter: OperationParameter, value: unknown): string {
  if (value === undefined || value === null) return '';
  const style = parameter.style ?? 'form';
  const explode = parameter.explode ?? style === 'form';
  const name = encodeFormComponent(parameter.name);
  const pair = (key: string, text: string) => `${key}=${encodeFormComponent(text)}`;

  if (style === 'deepObject' && isPlainObject(value)) {
    return deepObjectPairs(parameter.name, value)
      .map(([key, text]) => pair(encodeFormComponent(key), text))
      .join('&');
  }
  if (Array.isArray(value)) {
    const items = arrayItems(value);
    if (items.length === 0) return '';
    if (explode) return items.map((item) => pair(name, item)).join('&');
    return `${name}=${items.map(encodeFormComponent).join(delimiterOf(style))}`;
  }
  if (isPlainObject(value)) {
    const entries = objectEntries(value);
    if (entries.length === 0) return '';
    if (explode) return entries.map(([key, item]) => pair(encodeFormComponent(key), item)).join('&');
    return `${name}=${entries.flat().map(encodeFormComponent).join(delimiterOf(style))}`;
  }
  return pair(name, scalarText(value));
}

/** `spaceDelimited` uses an encoded space (`%20`), as the OpenAPI style table shows. */
function delimiterOf(style: string): string {
  if (style === 'spaceDelimited') return '%20';
  if (style === 'pipeDelimited') return '|';
  return ',';
}

/** `filter[status]=open`, nesting further objects as `filter[a][b]` and repeating keys for arrays. */
function deepObjectPairs(prefix: string, value: Record<string, unknown>): Entry[] {
  return Object.entries(value).flatMap(([key, item]): Entry[] => {
    const name = `${prefix}[${key}]`;
    if (item === undefined || item === null) return [];
    if (isPlainObject(item)) return deepObjectPairs(name, item);
    if (Array.isArray(item)) return arrayItems(item).map((text) => [name, text] as const);
    return [[name, scalarText(item)]];
  });
}

/** A header value in `simple` style (the only style OpenAPI defines for headers), unencoded. */
export function serializeHeaderValue(parameter: OperationParameter, value: unknown): string {
  return serializePathValue({ ...parameter, style: 'simple' }, value, (text) => text);
}
