/**
 * What an API error body says, in a form safe to hand to an agent: the school's `error` and
 * `error_description` (or the common alternatives), the fields it names, or, for a body that is
 * not JSON, a short sanitised excerpt. Pure. The body is hostile text (ERR-04, LOG-02).
 */
import type { ResponseContent } from './execution-outcome.js';

export interface ErrorBodySummary {
  /** `invalid_request: The title is required.`-style text, when the body said anything. */
  readonly message?: string;
  /** Field names from validation errors, for "fix the named fields". */
  readonly fields: readonly string[];
  /** For non-JSON bodies: at most `EXCERPT_BYTES` of visible text. */
  readonly excerpt?: string;
}

/** The longest excerpt of a non-JSON body that reaches an agent. */
export const EXCERPT_BYTES = 200;
const MAX_MESSAGE_CHARS = 500;
const MAX_FIELDS = 20;

export function summarizeErrorBody(content: ResponseContent, contentType: string | undefined): ErrorBodySummary {
  if (content.kind === 'json') return summarizeJson(content.value);
  if (content.kind === 'text') {
    const excerpt = visibleExcerpt(content.text, contentType);
    return excerpt === '' ? { fields: [] } : { fields: [], excerpt };
  }
  return { fields: [] };
}

/** The visible text of a body (markup, scripts and styles removed), cut to `EXCERPT_BYTES`. */
export function visibleExcerpt(text: string, contentType: string | undefined): string {
  return excerptOf(isHtml(text, contentType) ? htmlToText(text) : text, EXCERPT_BYTES);
}

export function isHtml(text: string, contentType: string | undefined): boolean {
  return contentType === 'text/html' || contentType === 'application/xhtml+xml' || /^\s*<(?:!doctype\s+html|html[\s>])/i.test(text);
}

function summarizeJson(value: unknown): ErrorBodySummary {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { fields: [] };
  const body = value as Record<string, unknown>;
  const nested = isRecord(body['error']) ? body['error'] : undefined;
  const code = firstString(typeof body['error'] === 'string' ? body['error'] : undefined, nested?.['code'], nested?.['type'], body['code']);
  const description = firstString(
    body['error_description'], nested?.['message'], nested?.['description'], body['message'], body['detail'], body['title'],
  );
  const text = [code, description].filter((part) => part !== undefined).join(': ');
  const fields = fieldNames(body['errors'] ?? nested?.['details'] ?? nested?.['errors']);
  return text === '' ? { fields } : { message: clean(text).slice(0, MAX_MESSAGE_CHARS), fields };
}

/** `[{ field: "title" }]`, `[{ path: ["a", "b"] }]`, `[{ loc: [...] }]` or `{ title: ["required"] }`. */
function fieldNames(errors: unknown): string[] {
  const names = Array.isArray(errors)
    ? errors.flatMap((entry) => {
        if (!isRecord(entry)) return [];
        const name = entry['field'] ?? entry['name'] ?? entry['path'] ?? entry['loc'] ?? entry['pointer'];
        if (typeof name === 'string') return [name];
        if (Array.isArray(name)) return [name.map(String).join('.')];
        return [];
      })
    : isRecord(errors) ? Object.keys(errors) : [];
  return [...new Set(names.map((name) => clean(name).slice(0, 100)).filter((name) => name !== ''))].slice(0, MAX_FIELDS);
}

function firstString(...values: unknown[]): string | undefined {
  return values.find((value): value is string => typeof value === 'string' && value.trim() !== '');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Control characters (line breaks, ANSI escapes) become spaces; whitespace runs collapse. */
function clean(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').replace(/\s+/g, ' ').trim();
}

function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;/gi, "'")
    .replace(/&amp;/gi, '&');
}

/** At most `maxBytes` of UTF-8, cut on a character boundary, with `…` when cut. */
function excerptOf(text: string, maxBytes: number): string {
  const cleaned = clean(text);
  if (Buffer.byteLength(cleaned, 'utf8') <= maxBytes) return cleaned;
  let excerpt = '';
  let bytes = 0;
  for (const char of cleaned) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > maxBytes - 3) break;
    excerpt += char;
    bytes += size;
  }
  return `${excerpt}…`;
}
