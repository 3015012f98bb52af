/**
 * The one-shot redirect listener (RFC 8252 §7.3, §8.3): bound to 127.0.0.1 only (::1 when IPv4
 * loopback is unavailable), on the socket whose port the redirect URI then names (LB-03), opened
 * per flow and closed after the first response that belongs to it (LB-04). It answers only
 * `GET /callback` with a loopback Host (LB-06), with a static page (LB-07).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log.js';
import { LOOPBACK_ADDRESSES, LOOPBACK_HOST_NAMES } from '../network/index.js';
import { callbackPage, type CallbackPageKind } from './callback-page.js';
import { validateCallback, type ExpectedCallback } from './callback-validation.js';
import { OAuthError } from './oauth-error.js';

const CALLBACK_PATH = '/callback';
const MAX_URL_LENGTH = 8 * 1024;
const DEFAULT_MAX_INVALID = 20;

export type CallbackOutcome =
  | { kind: 'code'; callbackUrl: URL }
  | { kind: 'error'; error: string }
  | { kind: 'fail'; reason: string };

export interface CallbackListener {
  readonly redirectUri: string;
  readonly port: number;
  readonly host: string;
  /** Settles once: with the first response attributable to the flow, or an error after too many bad hits. */
  readonly outcome: Promise<CallbackOutcome>;
  /** Supplies what to expect; requests arriving before it are refused without consuming anything. */
  expect(expected: ExpectedCallback): void;
  close(): Promise<void>;
}

export interface ListenerOptions {
  /** A fixed port; 0 or absent picks a free one. */
  port?: number;
  logger: Logger;
  /** Hosts tried in order; only loopback literals are accepted. */
  hosts?: readonly string[];
  maxInvalid?: number;
}

function assertLoopbackHost(host: string): void {
  if (!(LOOPBACK_ADDRESSES as readonly string[]).includes(host)) {
    throw new OAuthError('OAUTH_INVALID_CONFIG', `The callback listener must bind a loopback address, not ${host}.`, {
      hint: 'The redirect listener only ever binds 127.0.0.1 or ::1.',
    });
  }
}

/** `http://127.0.0.1:<port>/callback`, or the bracketed IPv6 form (RFC 8252 §7.3). */
export function redirectUriFor(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}${CALLBACK_PATH}`;
}

export async function startCallbackListener(options: ListenerOptions): Promise<CallbackListener> {
  const hosts = options.hosts ?? LOOPBACK_ADDRESSES;
  hosts.forEach(assertLoopbackHost);
  const port = options.port ?? 0;
  let lastError: unknown;
  for (const host of hosts) {
    const server = createServer({ requestTimeout: 10_000, headersTimeout: 10_000, keepAliveTimeout: 1 });
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen({ port, host, exclusive: true }, () => {
          server.off('error', reject);
          resolve();
        });
      });
      return serve(server, host, options);
    } catch (error) {
      lastError = error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') {
        throw new OAuthError('OAUTH_CALLBACK_PORT_BUSY', `The callback port ${port} is in use by another program.`, {
          cause: error,
          hint: 'Close the program using that port or choose another callback port.',
          details: { port },
        });
      }
      // RFC 8252 §7.3: fall back to the other loopback family when this one is unavailable.
      if (code !== 'EADDRNOTAVAIL' && code !== 'EAFNOSUPPORT') break;
    }
  }
  throw new OAuthError('OAUTH_CALLBACK_UNAVAILABLE', 'No loopback address could be bound for the sign-in callback.', {
    cause: lastError,
    hint: 'Check that the loopback interface (127.0.0.1) is available on this machine.',
  });
}

function serve(server: Server, host: string, options: ListenerOptions): CallbackListener {
  const port = (server.address() as AddressInfo).port;
  const redirectUri = redirectUriFor(host, port);
  const allowedHosts = new Set(LOOPBACK_HOST_NAMES.map((name) => `${name}:${port}`));
  const maxInvalid = options.maxInvalid ?? DEFAULT_MAX_INVALID;
  let expected: ExpectedCallback | undefined;
  let invalidHits = 0;
  let settled = false;
  let settle!: (outcome: CallbackOutcome) => void;
  const outcome = new Promise<CallbackOutcome>((resolve) => {
    settle = resolve;
  });
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }));

  const finish = (result: CallbackOutcome, response: ServerResponse, page: CallbackPageKind) => {
    settled = true;
    send(response, page);
    response.once('finish', () => void close());
    settle(result);
  };

  const refuse = (response: ServerResponse, page: CallbackPageKind, reason: string) => {
    send(response, page);
    options.logger.warn('refused a request on the sign-in callback listener', { reason });
    invalidHits += 1;
    if (invalidHits >= maxInvalid && !settled) {
      settled = true;
      settle({ kind: 'fail', reason: 'too many invalid callback requests' });
      void close();
    }
  };

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (settled) return send(response, 'invalid');
    const rawUrl = request.url ?? '';
    if (rawUrl.length > MAX_URL_LENGTH) return refuse(response, 'too-long', 'request line too long');
    // DNS rebinding: a page on another name resolving to 127.0.0.1 carries its own Host.
    if (!allowedHosts.has((request.headers.host ?? '').toLowerCase()))
      return refuse(response, 'forbidden', 'foreign Host header');
    const queryStart = rawUrl.indexOf('?');
    const path = queryStart === -1 ? rawUrl : rawUrl.slice(0, queryStart);
    if (path !== CALLBACK_PATH) return refuse(response, 'not-found', 'unknown path');
    if (request.method !== 'GET') return refuse(response, 'method', 'method not allowed');
    if (!expected) return refuse(response, 'invalid', 'no flow expects a callback yet');
    const query = new URLSearchParams(queryStart === -1 ? '' : rawUrl.slice(queryStart + 1));
    const verdict = validateCallback(query, expected);
    switch (verdict.kind) {
      case 'ignore':
        return refuse(response, 'invalid', verdict.reason);
      case 'fail':
        return finish({ kind: 'fail', reason: verdict.reason }, response, 'invalid');
      case 'error':
        return finish(
          { kind: 'error', error: verdict.error },
          response,
          verdict.error === 'access_denied' ? 'denied' : 'failed',
        );
      case 'code':
        return finish({ kind: 'code', callbackUrl: new URL(rawUrl, redirectUri) }, response, 'success');
    }
  });

  return {
    redirectUri,
    port,
    host,
    outcome,
    expect(value) {
      expected = value;
    },
    async close() {
      if (!settled) {
        settled = true;
        settle({ kind: 'fail', reason: 'closed' });
      }
      await close();
    },
  };
}

function send(response: ServerResponse, kind: CallbackPageKind): void {
  const page = callbackPage(kind);
  response.writeHead(page.status, page.headers);
  response.end(page.body);
}
