/**
 * The one HTTP door of the sign-in part: undici 7's fetch (never Node's bundled one), no
 * redirects followed (MD-03), bodies capped (MD-04, NET-03), a time limit on every request.
 * openid-client receives it through `customFetch`.
 */
import type { Agent } from 'undici';
import { OAuthError } from './oauth-error.js';

/** The shape openid-client's `customFetch` calls, which is also what we call ourselves. */
export type FetchLike = (
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; redirect?: 'manual'; signal?: AbortSignal | null },
) => Promise<Response>;

export interface SchoolFetchOptions {
  /** Injected transport (tests); undici's fetch over its own Agent by default. */
  fetch?: FetchLike;
  /** Largest body accepted, in bytes (default 1 MiB: metadata and token responses are small). */
  maxBodyBytes?: number;
  /** Per-request time limit in milliseconds (default 15 s). */
  timeoutMs?: number;
}

const DEFAULT_MAX_BODY = 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 15_000;

let sharedAgent: Agent | undefined;

/** undici is loaded on the first request: a signed-in start makes none, and it is a large module. */
function defaultFetch(): FetchLike {
  return async (url, init) => {
    const undici = await import('undici');
    sharedAgent ??= new undici.Agent({ connect: { timeout: 5_000 }, headersTimeout: 15_000, bodyTimeout: 15_000 });
    const options = { ...(init as Record<string, unknown>), dispatcher: sharedAgent } as Parameters<typeof undici.fetch>[1];
    return undici.fetch(url, options) as unknown as Promise<Response>;
  };
}

export function createSchoolFetch(options: SchoolFetchOptions = {}): FetchLike {
  const transport = options.fetch ?? defaultFetch();
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return async (url, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await transport(url, { ...init, redirect: 'manual', signal });
    } catch (cause) {
      throw networkError(url, cause, timeout.aborted);
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      throw new OAuthError('OAUTH_UNEXPECTED_REDIRECT', `${describe(url)} answered with a redirect (${response.status}); redirects are not followed.`, {
        hint: 'The school is misconfigured or something intercepts its address; check the --school URL.',
        details: { url: describe(url), status: response.status },
      });
    }
    const body = await readCapped(response, maxBodyBytes, url);
    return new Response(body.byteLength === 0 && nullBodyStatus(response.status) ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function nullBodyStatus(status: number): boolean {
  return status === 204 || status === 205 || status === 304;
}

async function readCapped(response: Response, limit: number, url: string): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(url, limit);
  }
  if (!response.body) return new Uint8Array(new ArrayBuffer(0));
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(url, limit);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(new ArrayBuffer(total));
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function tooLarge(url: string, limit: number): OAuthError {
  return new OAuthError('OAUTH_RESPONSE_TOO_LARGE', `${describe(url)} sent a response larger than ${limit} bytes.`, {
    hint: 'The school answered with something that is not an OAuth response; check the --school URL.',
  });
}

function networkError(url: string, cause: unknown, timedOut: boolean): OAuthError {
  return new OAuthError('OAUTH_NETWORK', timedOut ? `${describe(url)} did not answer in time.` : `${describe(url)} could not be reached.`, {
    cause,
    hint: 'Check the network connection and the school address, then try again.',
  });
}

/** Origin and path only: query strings may carry codes or tokens. */
export function describe(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return 'the school';
  }
}
