import type { AuthFaultOptions, AuthServerOptions } from './auth/index.js';
import type { SchoolApiOptions } from './api/index.js';

/** Faults for the bridge's tests; all off by default. */
export interface FaultOptions extends AuthFaultOptions {
  /** Milliseconds added before every answer. */
  latencyMs?: number;
  /** Paths (exact pathname) answered with this status and a JSON error body. */
  serverErrorPaths?: Readonly<Record<string, number>>;
  /** Paths answered with 200 and an HTML page instead of their real body. */
  htmlPaths?: readonly string[];
  /** Paths answered with 429 and this many seconds in `Retry-After`. */
  rateLimitPaths?: Readonly<Record<string, number>>;
  /**
   * Requests (`"METHOD /path"`, exact pathname) that carry a bearer token and are answered 403
   * `insufficient_scope` naming `scope`: when the token lacks one of those scopes (a school that
   * needs more than its document declares), or always with `evenWhenGranted` (a school that
   * keeps refusing whatever is granted).
   */
  scopeChallenges?: Readonly<Record<string, { readonly scope: string; readonly evenWhenGranted?: boolean }>>;
}

export interface SandboxOptions extends AuthServerOptions, SchoolApiOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  faults?: FaultOptions;
}
