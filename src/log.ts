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

/** Registered secrets kept for redaction, the most recently registered first to stay. */
export const MAX_REDACTED_SECRETS = 10_000;

/** Characters of a secret that index it; `redact()` ignores anything shorter. */
const SECRET_PREFIX_LENGTH = 8;

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** Registers a secret value; from now on it is replaced wherever it would appear in a line. */
  redact(secret: string | undefined): void;
  /** A logger that prefixes its lines with a component name and shares this one's secrets. */
  child(component: string): Logger;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; stderr by default. Tests pass a collector. */
  write?: (line: string) => void;
}

interface LoggerState {
  minimum: number;
  write: (line: string) => void;
  secrets: SecretRegistry;
}

/**
 * The secrets registered with `redact()`, and their replacement in a line. A hosted instance
 * registers every staff member's tokens as they rotate, so a plain set grew for as long as the
 * process ran, and every line paid one search per secret ever seen. Here a line is searched once,
 * by the secrets' first characters, whatever their number, and only the most recent
 * MAX_REDACTED_SECRETS are kept: one registered again counts as recent. By then the oldest are
 * long rotated out; their fields are still redacted by name.
 */
export class SecretRegistry {
  /** In registration order, oldest first (a Map keeps insertion order). */
  readonly #secrets = new Set<string>();
  readonly #byPrefix = new Map<string, Set<string>>();
  /**
   * How many secrets start with each hash of three characters: most places in a line start no
   * secret, and this turns them down without building a string.
   */
  readonly #startCounts = new Uint16Array(1 << 16);

  constructor(private readonly capacity = MAX_REDACTED_SECRETS) {}

  get size(): number {
    return this.#secrets.size;
  }

  add(secret: string): void {
    if (secret.length < SECRET_PREFIX_LENGTH) return;
    if (this.#secrets.delete(secret)) {
      this.#secrets.add(secret);
      return;
    }
    this.#secrets.add(secret);
    const prefix = secret.slice(0, SECRET_PREFIX_LENGTH);
    let sharing = this.#byPrefix.get(prefix);
    if (sharing === undefined) this.#byPrefix.set(prefix, (sharing = new Set()));
    sharing.add(secret);
    this.#startCounts[startHash(secret, 0)]! += 1;
    if (this.#secrets.size > this.capacity) this.#forget(this.#secrets.values().next().value as string);
  }

  /** `line` with every registered secret in it replaced, the longest first where several start at one place. */
  redactIn(line: string): string {
    if (this.#secrets.size === 0) return line;
    let redacted = '';
    let copiedTo = 0;
    for (let index = 0; index + SECRET_PREFIX_LENGTH <= line.length; ) {
      const found = this.#startCounts[startHash(line, index)] === 0 ? undefined : this.#longestAt(line, index);
      if (found === undefined) {
        index += 1;
        continue;
      }
      redacted += line.slice(copiedTo, index) + REDACTED;
      index += found.length;
      copiedTo = index;
    }
    return copiedTo === 0 ? line : redacted + line.slice(copiedTo);
  }

  #longestAt(line: string, index: number): string | undefined {
    let found: string | undefined;
    for (const secret of this.#byPrefix.get(line.slice(index, index + SECRET_PREFIX_LENGTH)) ?? []) {
      if ((found === undefined || secret.length > found.length) && line.startsWith(secret, index)) found = secret;
    }
    return found;
  }

  #forget(secret: string): void {
    this.#secrets.delete(secret);
    const prefix = secret.slice(0, SECRET_PREFIX_LENGTH);
    const sharing = this.#byPrefix.get(prefix);
    sharing?.delete(secret);
    if (sharing?.size === 0) this.#byPrefix.delete(prefix);
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
    state.write(formatLine(state.secrets, component, level, message, fields));
  };
  return {
    debug: (message, fields) => emit('debug', message, fields),
    info: (message, fields) => emit('info', message, fields),
    warn: (message, fields) => emit('warn', message, fields),
    error: (message, fields) => emit('error', message, fields),
    redact(secret) {
      // Very short values would redact ordinary words; real secrets are long.
      if (secret !== undefined) state.secrets.add(secret);
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
