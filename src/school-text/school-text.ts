/**
 * The one rule for text a school controls that school-mcp quotes back: in a tool result, an error
 * message or hint, a consent text, `status` output. Such text is read by an agent, so it could
 * carry instructions; what is quoted is kept to one short line of the characters its protocol
 * allows, and anything else is reported as malformed instead of being passed on. Pure.
 * @see SECURITY.md ERR-05
 */
import { showableText } from './showable-text.js';

/** RFC 6749 §5.2 `error` and `error_description` (and RFC 6750 §3 attributes): %x20-21 / %x23-5B / %x5D-7E. */
const PROTOCOL_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
/** RFC 6749 §5.2 `error_uri` and §3.3 `scope-token`: the same without space. */
const PROTOCOL_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** The longest RFC 6749 error code kept; registered codes are under 30 characters. */
const MAX_ERROR_CODE_LENGTH = 64;
export const MAX_ERROR_DESCRIPTION_LENGTH = 300;
const MAX_ERROR_URI_LENGTH = 200;
const MAX_SCOPE_LENGTH = 128;
/** Scopes kept from one list a school sends (a challenge, a token response); far above any real grant. */
const MAX_SCOPES = 256;
/** The default cap of free text (a user's name, an API error message). */
const MAX_FREE_TEXT_LENGTH = 200;

export const MALFORMED_ERROR = 'malformed error';
export const MALFORMED_DESCRIPTION = 'malformed error description';

/**
 * An RFC 6749 §5.2 `error` code as quotable text: `undefined` when absent, `malformed error`
 * when it holds a character outside §5.2, is empty, or is longer than any real code.
 */
export function errorCodeText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (
    typeof value !== 'string' ||
    value.trim() === '' ||
    value.length > MAX_ERROR_CODE_LENGTH ||
    !PROTOCOL_TEXT.test(value)
  ) {
    return MALFORMED_ERROR;
  }
  return value.trim();
}

/**
 * An RFC 6749 §5.2 `error_description`: only §5.2 characters (so one line, no markup escape
 * sequences), cut to `MAX_ERROR_DESCRIPTION_LENGTH`; otherwise `malformed error description`.
 */
export function errorDescriptionText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !PROTOCOL_TEXT.test(value)) return MALFORMED_DESCRIPTION;
  return boundedLine(value, MAX_ERROR_DESCRIPTION_LENGTH);
}

/** An RFC 6749 §5.2 `error_uri`: an absolute https (or http) URI of §5.2 characters, else `undefined`. */
export function errorUriText(value: unknown): string | undefined {
  if (
    typeof value !== 'string' ||
    value.length > MAX_ERROR_URI_LENGTH ||
    !PROTOCOL_TOKEN.test(value) ||
    !URL.canParse(value)
  )
    return undefined;
  const { protocol } = new URL(value);
  return protocol === 'https:' || protocol === 'http:' ? value : undefined;
}

/** A scope a school names (RFC 6749 §3.3 scope-token), when it is one and of a sane length. */
export function isQuotableScope(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_SCOPE_LENGTH && PROTOCOL_TOKEN.test(value);
}

/** The scope-tokens of a list a school sent, at most `MAX_SCOPES`; anything else is dropped. */
export function quotableScopes(values: Iterable<unknown>): string[] {
  const kept: string[] = [];
  for (const value of values) {
    if (kept.length >= MAX_SCOPES) break;
    if (isQuotableScope(value)) kept.push(value);
  }
  return kept;
}

/**
 * Free text a school wrote (an API error message, a user's name, a metadata value): any
 * language, but one line of showable characters, whitespace collapsed, at most `maxLength`
 * characters (cut with `…`). `undefined` for a non-string or nothing left.
 */
export function freeText(value: unknown, maxLength = MAX_FREE_TEXT_LENGTH): string | undefined {
  return typeof value === 'string' ? boundedLine(value, maxLength, showableText) : undefined;
}

/**
 * A value for an error message: a string in double quotes with JSON escaping, so that where the
 * school's words end is plain; anything else as its JSON text. Either way one capped line.
 */
export function quotedText(value: unknown, maxLength = MAX_FREE_TEXT_LENGTH): string {
  if (typeof value === 'string') return JSON.stringify(freeText(value, maxLength) ?? '');
  return freeText(JSON.stringify(value) ?? String(value), maxLength) ?? 'null';
}

/**
 * One line of at most `maxLength` characters, ending in `…` when cut. Only the head of the text
 * is cleaned: a megabyte is never scanned to show two hundred characters.
 */
function boundedLine(
  value: string,
  maxLength: number,
  clean: (head: string) => string = (head) => head,
): string | undefined {
  const head = value.slice(0, maxLength * 4 + 64);
  const characters = [...clean(head).replace(/\s+/g, ' ').trim()];
  if (characters.length === 0) return undefined;
  if (characters.length <= maxLength && head.length === value.length) return characters.join('');
  return `${characters.slice(0, maxLength - 1).join('')}…`;
}
