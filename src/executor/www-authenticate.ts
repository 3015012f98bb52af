/**
 * `WWW-Authenticate` parsing (RFC 9110 §11.6.1) and the Bearer challenge of RFC 6750 §3 with the
 * RFC 9728 §5.1 `resource_metadata` parameter. Pure; the header value is hostile input, so every
 * parameter kept passes the rule for quoting a school's words.
 * @see SECURITY.md ERR-01, ERR-05
 */
import { errorCodeText, errorDescriptionText, freeText, quotableScopes } from '../school-text/index.js';

export interface AuthChallenge {
  /** Lower-cased: schemes are case-insensitive (RFC 9110 §11.1). */
  readonly scheme: string;
  /** Lower-cased names; the first occurrence of a duplicated name wins. */
  readonly params: ReadonlyMap<string, string>;
  readonly token68?: string;
}

export interface BearerChallenge {
  /** RFC 6750 §3.1 code, or `malformed error` when it is not one. */
  readonly error?: string;
  /** RFC 6749 §5.2 characters only, capped, or `malformed error description`: it may reach agents. */
  readonly errorDescription?: string;
  /** RFC 6750 §3: a space-delimited, case-sensitive list; only valid scope-tokens are kept. */
  readonly scope: readonly string[];
  /** Only an absolute http(s) URL; anything else (`javascript:`, relative) is dropped. */
  readonly resourceMetadata?: string;
  readonly realm?: string;
}

const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*/;
const WHITESPACE = /[ \t]/;

class Cursor {
  position = 0;
  constructor(readonly text: string) {}

  get done(): boolean {
    return this.position >= this.text.length;
  }
  peek(): string {
    return this.text[this.position] ?? '';
  }
  skipWhitespace(): boolean {
    const start = this.position;
    while (WHITESPACE.test(this.peek()) && !this.done) this.position++;
    return this.position > start;
  }
  token(): string {
    const start = this.position;
    while (!this.done && TOKEN_CHAR.test(this.peek())) this.position++;
    return this.text.slice(start, this.position);
  }
  /** RFC 9110 §5.6.4; lenient about control characters, which callers sanitise. */
  quotedString(): string | undefined {
    if (this.peek() !== '"') return undefined;
    this.position++;
    let value = '';
    while (!this.done) {
      const char = this.peek();
      this.position++;
      if (char === '"') return value;
      if (char === '\\') {
        if (this.done) return undefined;
        value += this.peek();
        this.position++;
      } else {
        value += char;
      }
    }
    return undefined;
  }
  /** True when, after optional whitespace, the list element ends here. */
  atElementEnd(): boolean {
    const saved = this.position;
    this.skipWhitespace();
    const ended = this.done || this.peek() === ',';
    this.position = saved;
    return ended;
  }
}

/**
 * Every challenge of one or more header values. A malformed challenge ends parsing of its header
 * value; the challenges completed before it are kept.
 */
export function parseWwwAuthenticate(header: string | readonly string[] | undefined): AuthChallenge[] {
  if (header === undefined) return [];
  const values = typeof header === 'string' ? [header] : header;
  return values.flatMap((value) => parseHeaderValue(value));
}

function parseHeaderValue(value: string): AuthChallenge[] {
  const cursor = new Cursor(value);
  const challenges: AuthChallenge[] = [];
  let scheme = nextScheme(cursor);
  while (scheme !== undefined) {
    const parsed = parseChallengeBody(cursor, scheme);
    if (parsed === undefined) break;
    challenges.push(parsed.challenge);
    scheme = parsed.nextScheme;
  }
  return challenges;
}

/** Skips empty list elements (RFC 9110 §5.6.1) and reads an auth-scheme followed by SP, `,` or the end. */
function nextScheme(cursor: Cursor): string | undefined {
  while (!cursor.done && (cursor.peek() === ',' || WHITESPACE.test(cursor.peek()))) cursor.position++;
  if (cursor.done) return undefined;
  const scheme = cursor.token();
  if (scheme === '') return undefined;
  if (!cursor.done && cursor.peek() !== ',' && !WHITESPACE.test(cursor.peek())) return undefined;
  return scheme.toLowerCase();
}

function parseChallengeBody(
  cursor: Cursor,
  scheme: string,
): { challenge: AuthChallenge; nextScheme: string | undefined } | undefined {
  const params = new Map<string, string>();
  cursor.skipWhitespace();
  if (cursor.done || cursor.peek() === ',') {
    return { challenge: { scheme, params }, nextScheme: nextScheme(cursor) };
  }

  const token68 = TOKEN68.exec(cursor.text.slice(cursor.position))?.[0];
  if (token68 !== undefined) {
    const saved = cursor.position;
    cursor.position += token68.length;
    if (cursor.atElementEnd()) {
      return { challenge: { scheme, params, token68 }, nextScheme: nextScheme(cursor) };
    }
    cursor.position = saved;
  }

  for (;;) {
    const name = cursor.token().toLowerCase();
    if (name === '') return undefined;
    cursor.skipWhitespace();
    if (cursor.peek() !== '=') return undefined;
    cursor.position++;
    cursor.skipWhitespace();
    const paramValue = cursor.peek() === '"' ? cursor.quotedString() : cursor.token();
    if (paramValue === undefined) return undefined;
    if (!params.has(name)) params.set(name, paramValue);

    cursor.skipWhitespace();
    if (cursor.done) return { challenge: { scheme, params }, nextScheme: undefined };
    if (cursor.peek() !== ',') return undefined;
    while (!cursor.done && (cursor.peek() === ',' || WHITESPACE.test(cursor.peek()))) cursor.position++;
    if (cursor.done) return { challenge: { scheme, params }, nextScheme: undefined };
    if (!startsAuthParam(cursor)) return { challenge: { scheme, params }, nextScheme: nextScheme(cursor) };
  }
}

/** After a comma: `name BWS "="` continues this challenge; anything else starts the next one. */
function startsAuthParam(cursor: Cursor): boolean {
  const saved = cursor.position;
  const name = cursor.token();
  cursor.skipWhitespace();
  const isParam = name !== '' && cursor.peek() === '=';
  cursor.position = saved;
  return isParam;
}

/** The first Bearer challenge, with the RFC 6750 and RFC 9728 parameters extracted. */
export function bearerChallenge(header: string | readonly string[] | undefined): BearerChallenge | undefined {
  const bearer = parseWwwAuthenticate(header).find((challenge) => challenge.scheme === 'bearer');
  if (bearer === undefined) return undefined;
  const error = errorCodeText(bearer.params.get('error'));
  const errorDescription = errorDescriptionText(bearer.params.get('error_description'));
  const realm = freeText(bearer.params.get('realm'));
  const resourceMetadata = httpUrlOrUndefined(bearer.params.get('resource_metadata'));
  return {
    ...(error === undefined ? {} : { error }),
    ...(errorDescription === undefined ? {} : { errorDescription }),
    scope: quotableScopes((bearer.params.get('scope') ?? '').split(' ').filter((scope) => scope !== '')),
    ...(resourceMetadata === undefined ? {} : { resourceMetadata }),
    ...(realm === undefined ? {} : { realm }),
  };
}

function httpUrlOrUndefined(value: string | undefined): string | undefined {
  if (value === undefined || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
}
