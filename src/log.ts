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
  secrets: Set<string>;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const state: LoggerState = {
    minimum: levelRank[options.level ?? 'info'],
    write: options.write ?? ((line) => process.stderr.write(line + '\n')),
    secrets: new Set(),
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
      if (secret && secret.length >= 8) state.secrets.add(secret);
    },
    child: (name) => buildLogger(state, `${component}:${name}`),
  };
}

/** Pure: one event as one line, with every value escaped, capped and redacted. */
export function formatLine(
  secrets: ReadonlySet<string>,
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
  for (const secret of secrets) line = line.split(secret).join(REDACTED);
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

/** Control characters (CR, LF, ANSI escapes) become visible escapes so no line can be forged. */
function escapeText(text: string): string {
  const capped = text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH)}…(${text.length} chars)` : text;
  return capped.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
