/**
 * The only logger. It writes to stderr (stdout belongs to JSON-RPC in stdio mode), one line per
 * event, and redacts secrets twice over: by field name, and by value for every secret registered
 * with `redact()` (tokens, codes, verifiers, client secrets), wherever that value appears, as it
 * is or as JSON escaping writes it. Values are redacted before they are cut to length, so no cut
 * leaves the head of a secret behind.
 * @see SECURITY.md LOG-01, LOG-02, LOG-07, LOG-08, LOG-09
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const levelRank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Field names whose values are never written. */
const SECRET_FIELD = /token|secret|password|authorization|cookie|verifier|^code$|assertion/i;

/** Cap on any single logged value, so a hostile 1 MiB error description cannot flood the log. */
const MAX_VALUE_LENGTH = 500;

const REDACTED = '[redacted]';

/** Rotating secrets kept for redaction, the most recently registered; lasting ones are all kept. */
export const MAX_REDACTED_SECRETS = 10_000;

/** `redact()` ignores anything shorter: very short values would redact ordinary words; real secrets are long. */
const MIN_SECRET_LENGTH = 8;

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /**
   * Registers a secret value; from now on it is replaced wherever it would appear in a line.
   * `rotating`: a token or verifier replaced as the process runs, of which only the most recent
   * MAX_REDACTED_SECRETS are kept; by default a secret is kept for as long as the process runs.
   */
  redact(secret: string | undefined, lifetime?: SecretLifetime): void;
  /** A logger that prefixes its lines with a component name and shares this one's secrets. */
  child(component: string): Logger;
}

export type SecretLifetime = 'lasting' | 'rotating';

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go, with their level; stderr by default. Tests pass a collector. */
  write?: (line: string, level: LogLevel) => void;
}

interface LoggerState {
  minimum: number;
  write: (line: string, level: LogLevel) => void;
  secrets: SecretRegistry;
}

/**
 * The secrets registered with `redact()`, and their replacement in a line. A hosted instance
 * registers every staff member's tokens as they rotate, so a plain set grew for as long as the
 * process ran, and every line paid one search per secret ever seen. Here only the most recent
 * MAX_REDACTED_SECRETS rotating secrets are kept (one registered again counts as recent; by then
 * the oldest are long rotated out, and their fields are still redacted by name), while lasting
 * ones (client secrets, the endpoint's secret) are never let go. A line is searched once: a
 * place where no secret starts is passed over on a hash of three characters, and elsewhere the
 * text is looked up once per length that registered secrets have, so secrets that share a long
 * start (JWTs of one issuer) cost no more than others.
 */
export class SecretRegistry {
  /** Rotating secrets in registration order, oldest first (a Set keeps insertion order). */
  readonly #rotating = new Set<string>();
  readonly #lasting = new Set<string>();
  /**
   * Every form of every secret kept (`secretForms`), by its length, with how many secrets have
   * that form (one secret's escaped form may be another's raw one); the lengths longest first.
   */
  readonly #byLength = new Map<number, Map<string, number>>();
  #lengths: number[] = [];
  /** How many secrets start with each hash of three characters. */
  readonly #startCounts = new Uint32Array(1 << 16);

  constructor(private readonly capacity = MAX_REDACTED_SECRETS) {}

  get size(): number {
    return this.#rotating.size + this.#lasting.size;
  }

  /** The length of the longest form of a secret kept: how far past a cut a secret may run. */
  get longest(): number {
    return this.#lengths[0] ?? 0;
  }

  add(secret: string, lifetime: SecretLifetime = 'lasting'): void {
    if (secret.length < MIN_SECRET_LENGTH || this.#lasting.has(secret)) return;
    if (lifetime === 'lasting') {
      if (!this.#rotating.delete(secret)) this.#index(secret);
      this.#lasting.add(secret);
      return;
    }
    if (this.#rotating.delete(secret)) {
      this.#rotating.add(secret);
      return;
    }
    this.#rotating.add(secret);
    this.#index(secret);
    if (this.#rotating.size > this.capacity) {
      const oldest = this.#rotating.values().next().value as string;
      this.#rotating.delete(oldest);
      this.#unindex(oldest);
    }
  }

  /** `line` with every registered secret in it replaced; overlapping ones make one replacement. */
  redactIn(line: string): string {
    if (this.size === 0) return line;
    let redacted = '';
    let copiedTo = 0;
    for (let index = 0; index + MIN_SECRET_LENGTH <= line.length;) {
      let end = this.#endOfSecretAt(line, index);
      if (end === undefined) {
        index += 1;
        continue;
      }
      // A secret that starts inside this one and ends after it is covered too.
      for (let inner = index + 1; inner < end; inner++) end = Math.max(end, this.#endOfSecretAt(line, inner) ?? end);
      redacted += line.slice(copiedTo, index) + REDACTED;
      index = end;
      copiedTo = end;
    }
    return copiedTo === 0 ? line : redacted + line.slice(copiedTo);
  }

  /** Where the longest registered secret starting at `index` ends, if one does. */
  #endOfSecretAt(line: string, index: number): number | undefined {
    if (index + MIN_SECRET_LENGTH > line.length || this.#startCounts[startHash(line, index)] === 0) return undefined;
    for (const length of this.#lengths) {
      if (index + length <= line.length && this.#byLength.get(length)!.has(line.slice(index, index + length)))
        return index + length;
    }
    return undefined;
  }

  #index(secret: string): void {
    for (const form of secretForms(secret)) {
      let sameLength = this.#byLength.get(form.length);
      if (sameLength === undefined) {
        this.#byLength.set(form.length, (sameLength = new Map()));
        this.#lengths = [...this.#byLength.keys()].sort((a, b) => b - a);
      }
      sameLength.set(form, (sameLength.get(form) ?? 0) + 1);
      this.#startCounts[startHash(form, 0)]! += 1;
    }
  }

  #unindex(secret: string): void {
    for (const form of secretForms(secret)) {
      const sameLength = this.#byLength.get(form.length);
      const count = sameLength?.get(form) ?? 0;
      if (count > 1) sameLength!.set(form, count - 1);
      else sameLength?.delete(form);
      if (sameLength?.size === 0) {
        this.#byLength.delete(form.length);
        this.#lengths = this.#lengths.filter((length) => length !== form.length);
      }
      this.#startCounts[startHash(form, 0)]! -= 1;
    }
  }
}

/**
 * Pure: a secret as it may appear in a line: as it is; inside a JSON string (`"` and `\` escaped,
 * as a string field is rendered); with non-ASCII as `\uXXXX` as well (JSON written ASCII-only, a
 * school's error body); and each of those inside a JSON string again (a logged body that held
 * the secret). Only the forms that differ are listed, so most tokens have one.
 */
function secretForms(secret: string): string[] {
  const escaped = JSON.stringify(secret).slice(1, -1);
  const asciiOnly = escaped.replace(
    /[^\x00-\x7f]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const once = [secret, escaped, asciiOnly];
  return [...new Set([...once, ...once.map((form) => JSON.stringify(form).slice(1, -1))])];
}

/** Pure: a hash of the three characters at `index`, in 16 bits. */
function startHash(text: string, index: number): number {
  return (text.charCodeAt(index) * 961 + text.charCodeAt(index + 1) * 31 + text.charCodeAt(index + 2)) & 0xffff;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const state: LoggerState = {
    minimum: levelRank[options.level ?? 'info'],
    write: options.write ?? ((line) => process.stderr.write(line + '\n')),
    secrets: new SecretRegistry(),
  };
  return buildLogger(state, 'school-mcp');
}

function buildLogger(state: LoggerState, component: string): Logger {
  const emit = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (levelRank[level] < state.minimum) return;
    state.write(formatLine(state.secrets, component, level, message, fields), level);
  };
  return {
    debug: (message, fields) => emit('debug', message, fields),
    info: (message, fields) => emit('info', message, fields),
    warn: (message, fields) => emit('warn', message, fields),
    error: (message, fields) => emit('error', message, fields),
    redact(secret, lifetime) {
      if (secret !== undefined) state.secrets.add(secret, lifetime);
    },
    child: (name) => buildLogger(state, `${component}:${name}`),
  };
}

/** Pure: one event as one line, with every value redacted, then capped and escaped. */
export function formatLine(
  secrets: Pick<SecretRegistry, 'redactIn' | 'longest'>,
  component: string,
  level: LogLevel,
  message: string,
  fields?: Record<string, unknown>,
): string {
  let line = `${component} [${level}] ${shownText(secrets, message)}`;
  for (const [key, value] of Object.entries(fields ?? {})) {
    if (value === undefined) continue;
    const shown = SECRET_FIELD.test(key) ? REDACTED : shownText(secrets, renderValue(value));
    line += ` ${key}=${shown}`;
  }
  return line;
}

function renderValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof Error) return JSON.stringify(value.message);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * A text as logged: redacted first, over as much as the cut keeps plus the longest secret (one
 * that starts before the cut is replaced whole), then cut to `MAX_VALUE_LENGTH`, then escaped.
 */
function shownText(secrets: Pick<SecretRegistry, 'redactIn' | 'longest'>, text: string): string {
  const head = text.slice(0, MAX_VALUE_LENGTH + secrets.longest);
  const redacted = secrets.redactIn(head);
  const capped =
    redacted.length > MAX_VALUE_LENGTH || head.length < text.length
      ? `${redacted.slice(0, MAX_VALUE_LENGTH)}…(${text.length} chars)`
      : redacted;
  return escapeControls(capped);
}

/**
 * Control characters (CR, LF, ANSI escapes) become visible escapes so no line can be forged, and
 * so do format characters (bidirectional overrides, zero-width characters, tags), so that what a
 * terminal shows of a line is what the line holds (LOG-09).
 */
function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}\u{E0000}-\u{E007F}]/gu, (ch) => {
    const code = ch.codePointAt(0)!;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
