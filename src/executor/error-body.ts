/**
 * What an API error body says, in a form safe to hand to an agent: the school's `error` and
 * `error_description` (or the common alternatives), the fields it names, or, for a body that is
 * not JSON, a short sanitised excerpt. Pure. The body is hostile text (ERR-04, ERR-05, LOG-02):
 * the code must be an RFC 6749 §5.2 code, the words are one capped line.
 */
import { errorCodeText, freeText } from '../school-text/index.js';
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
const EXCERPT_BYTES = 200;
const MAX_DESCRIPTION_CHARS = 400;
const MAX_FIELDS = 20;
const MAX_FIELD_NAME_CHARS = 100;

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
  return (
    contentType === 'text/html' ||
    contentType === 'application/xhtml+xml' ||
    /^\s*<(?:!doctype\s+html|html[\s>])/i.test(text)
  );
}

function summarizeJson(value: unknown): ErrorBodySummary {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { fields: [] };
  const body = value as Record<string, unknown>;
  const nested = isRecord(body['error']) ? body['error'] : undefined;
  const code = errorCodeText(
    firstString(
      typeof body['error'] === 'string' ? body['error'] : undefined,
      nested?.['code'],
      nested?.['type'],
      body['code'],
    ),
  );
  const description = freeText(
    firstString(
      body['error_description'],
      nested?.['message'],
      nested?.['description'],
      body['message'],
      body['detail'],
      body['title'],
    ),
    MAX_DESCRIPTION_CHARS,
  );
  const text = [code, description].filter((part) => part !== undefined).join(': ');
  const fields = fieldNames(body['errors'] ?? nested?.['details'] ?? nested?.['errors']);
  return text === '' ? { fields } : { message: text, fields };
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
    : isRecord(errors)
      ? Object.keys(errors)
      : [];
  const shown = names
    .slice(0, MAX_FIELDS * 2)
    .map((name) => freeText(name, MAX_FIELD_NAME_CHARS))
    .filter((name) => name !== undefined);
  return [...new Set(shown)].slice(0, MAX_FIELDS);
}

function firstString(...values: unknown[]): string | undefined {
  return values.find((value): value is string => typeof value === 'string' && value.trim() !== '');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
  const cleaned = freeText(text, maxBytes) ?? '';
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
