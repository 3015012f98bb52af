/**
 * Shared set-up for the sign-in tests: a temporary store directory, a collecting logger, a
 * sandbox school over real HTTP, and sessions on them; everything is torn down after each test.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type Logger } from '../../../src/log.js';
import type { FetchLike } from '../../../src/network/index.js';
import { createSignInSession, type SignInSession, type SignInSessionConfig } from '../../../src/consent/index.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '@school-mcp/sandbox';

export interface Harness {
  dir: string;
  lines: string[];
  logger: Logger;
  sandbox(options?: SandboxOptions): Promise<RunningSandbox>;
  session(overrides: Partial<SignInSessionConfig> & Pick<SignInSessionConfig, 'prompter' | 'schoolUrl'>): SignInSession;
  cleanup(): Promise<void>;
}

export async function createHarness(): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'school-mcp-oauth-'));
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', write: (line) => lines.push(line) });
  const sandboxes: RunningSandbox[] = [];
  const sessions: SignInSession[] = [];
  return {
    dir,
    lines,
    logger,
    async sandbox(options = {}) {
      const sandbox = await startSandbox(options);
      sandboxes.push(sandbox);
      return sandbox;
    },
    session(overrides) {
      const session = createSignInSession({
        storeDir: join(dir, 'store'),
        logger,
        consentTimeoutMs: 20_000,
        ...overrides,
      });
      sessions.push(session);
      return session;
    },
    async cleanup() {
      await Promise.allSettled(sessions.map((session) => session.close()));
      await Promise.allSettled(sandboxes.map((sandbox) => sandbox.close()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The usual request of a read tool. */
export const READ_COURSES = { scopeAlternatives: [['courses:read']], requiredScopes: ['courses:read'] } as const;

interface RecordedCall {
  method: string;
  url: string;
  /** The form or JSON body as sent. */
  body: string;
  headers: Record<string, string>;
}

/** A transport that records what the session sends, then sends it for real. */
export interface Recorder {
  fetch: FetchLike;
  calls: RecordedCall[];
  bodiesTo(path: string): URLSearchParams[];
  /** Answers instead of the school when it returns a response (fault injection). */
  intercept?: (call: RecordedCall) => Response | undefined;
}

export function recordingFetch(): Recorder {
  const calls: RecordedCall[] = [];
  const recorder: Recorder = {
    calls,
    fetch: async (url, init) => {
      const body =
        typeof init.body === 'string' ? init.body : init.body instanceof URLSearchParams ? init.body.toString() : '';
      const call = { method: init.method ?? 'GET', url, body, headers: { ...init.headers } };
      calls.push(call);
      const faked = recorder.intercept?.(call);
      if (faked) return faked;
      return fetch(url, init as RequestInit);
    },
    bodiesTo: (path) =>
      calls.filter((call) => new URL(call.url).pathname === path).map((call) => new URLSearchParams(call.body)),
  };
  return recorder;
}

/** Polls until the condition holds (a few seconds at most): for effects that happen in the background. */
export async function until(condition: () => boolean, what = 'condition'): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
