/**
 * The only logger. It writes to stderr (stdout belongs to JSON-RPC in stdio mode), one line per
 * event, and redacts secrets twice over: by field name, and by value for every secret registered
 * with `redact()` (tokens, codes, verifiers, client secrets), wherever that value appears.
 * @see SECURITY.md LOG-01, LOG-02
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
  /** Every secret kept, by its length; the lengths longest first. */
  readonly #byLength = new Map<number, Set<string>>();
  #lengths: number[] = [];
  /** How many secrets start with each hash of three characters. */
  readonly #startCounts = new Uint32Array(1 << 16);

  constructor(private readonly capacity = MAX_REDACTED_SECRETS) {}

  get size(): number {
    return this.#rotating.size + this.#lasting.size;
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
    for (let index = 0; index + MIN_SECRET_LENGTH <= line.length; ) {
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
      if (index + length <= line.length && this.#byLength.get(length)!.has(line.slice(index, index + length))) return index + length;
    }
    return undefined;
  }

  #index(secret: string): void {
    let sameLength = this.#byLength.get(secret.length);
    if (sameLength === undefined) {
      this.#byLength.set(secret.length, (sameLength = new Set()));
      this.#lengths = [...this.#byLength.keys()].sort((a, b) => b - a);
    }
    sameLength.add(secret);
    this.#startCounts[startHash(secret, 0)]! += 1;
  }

  #unindex(secret: string): void {
    const sameLength = this.#byLength.get(secret.length);
    sameLength?.delete(secret);
    if (sameLength?.size === 0) {
      this.#byLength.delete(secret.length);
      this.#lengths = this.#lengths.filter((length) => length !== secret.length);
    }
    this.#startCounts[startHash(secret, 0)]! -= 1;
  }
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

/** Pure: one event as one line, with every value escaped, capped and redacted. */
export function formatLine(
  secrets: Pick<SecretRegistry, 'redactIn'>,
  component: string,
  level: LogLevel,
  message: string,
  fields?: Record<string, unknown>,
): string {
  let line = `${component} [${level}] ${escapeText(message)}`;
  for (const [key, value] of Object.entries(fields ?? {})) {
    if (value === undefined) continue;
    const shown = SECRET_FIELD.test(key) ? REDACTED : escapeText(renderValue(value));
    line += ` ${key}=${shown}`;
  }
  return secrets.redactIn(line);
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

/** Control characters (CR, LF, ANSI escapes) become visible escapes so no line can be forged. */
function escapeText(text: string): string {
  const capped = text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH)}…(${text.length} chars)` : text;
  return capped.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
