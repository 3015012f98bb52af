/**
 * The one HTTP door of the sign-in part: undici 7 (see the network part's `http-stack.ts`), no
 * redirects followed (MD-03), bodies capped (MD-04, NET-03), a time limit on every request.
 * openid-client receives it through `customFetch`.
 */
import { BODY_CAPS, readCappedBody, undiciFetch, type FetchLike } from '../network/index.js';
import { OAuthError } from './oauth-error.js';

export interface SchoolFetchOptions {
  /** Injected transport (tests); undici's fetch over its own Agent by default. */
  fetch?: FetchLike;
  /** Largest body accepted, in bytes (default `BODY_CAPS.oauthResponse`: metadata and token responses are small). */
  maxBodyBytes?: number;
  /** Per-request time limit in milliseconds (default 15 s). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/** One agent for every session of the process. */
const sharedTransport = undiciFetch({ connectTimeoutMs: 5_000, headersTimeoutMs: 15_000, bodyTimeoutMs: 15_000 });

export function createSchoolFetch(options: SchoolFetchOptions = {}): FetchLike {
  const transport = options.fetch ?? sharedTransport;
  const maxBodyBytes = options.maxBodyBytes ?? BODY_CAPS.oauthResponse;
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
      throw new OAuthError(
        'OAUTH_UNEXPECTED_REDIRECT',
        `${describe(url)} answered with a redirect (${response.status}); redirects are not followed.`,
        {
          hint: 'The school is misconfigured or something intercepts its address; check the --school URL.',
          details: { url: describe(url), status: response.status },
        },
      );
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
  const body = await readCappedBody(response, limit);
  if (body.kind === 'too-large') throw tooLarge(url, limit);
  return body.bytes;
}

function tooLarge(url: string, limit: number): OAuthError {
  return new OAuthError('OAUTH_RESPONSE_TOO_LARGE', `${describe(url)} sent a response larger than ${limit} bytes.`, {
    hint: 'The school answered with something that is not an OAuth response; check the --school URL.',
  });
}

function networkError(url: string, cause: unknown, timedOut: boolean): OAuthError {
  return new OAuthError(
    'OAUTH_NETWORK',
    timedOut ? `${describe(url)} did not answer in time.` : `${describe(url)} could not be reached.`,
    {
      cause,
      hint: 'Check the network connection and the school address, then try again.',
    },
  );
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
