/**
 * The error base of the bridge. Every failure that can reach a user or an agent carries a stable
 * `code` (SCREAMING_SNAKE with an area prefix, e.g. `OAUTH_ISSUER_MISMATCH`) so that callers branch
 * on codes, never on messages, and a `hint` that says what to do next.
 */
export class SchoolMcpError<Code extends string = string> extends Error {
  readonly code: Code;
  /** What the user or agent can do about it, in one sentence. */
  readonly hint: string | undefined;

  constructor(code: Code, message: string, options: { cause?: unknown; hint?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SchoolMcpError';
    this.code = code;
    this.hint = options.hint;
  }
}

export function isSchoolMcpError(value: unknown): value is SchoolMcpError {
  return value instanceof SchoolMcpError;
}
