/**
 * A small authorization server on 127.0.0.1 whose every endpoint can be made to misbehave: it
 * registers, approves at once (302 to the redirect URI with code, state and iss), issues canary
 * tokens, revokes and introspects, and records every request. Plus a prompter that plays the
 * browser for it. For the faults the sandbox has no knob for (redirects, narrowed grants,
 * `invalid_target`, 5xx on one endpoint).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConsentPrompt, ConsentPrompter } from '../../../src/consent/index.js';

type Endpoint = 'register' | 'token' | 'revoke' | 'introspect';

interface MockRequest {
  endpoint: Endpoint | 'metadata' | 'authorize' | 'other';
  method: string;
  form: URLSearchParams;
}

/** Answers instead of the default; `undefined` falls through to it; `'reset'` drops the connection. */
type Override = (
  request: MockRequest,
) => { status: number; body?: unknown; headers?: Record<string, string> } | 'reset' | undefined;

export interface MockSchool {
  readonly base: string;
  readonly requests: MockRequest[];
  override: Partial<Record<Endpoint, Override>>;
  /** Leave out of the metadata (e.g. `introspection_endpoint`). */
  omit: Set<string>;
  /** Scopes the school leaves out of every grant although they were asked for (RFC 6749 §3.3). */
  withhold: Set<string>;
  /** Form bodies sent to one endpoint, optionally only one grant type. */
  formsTo(endpoint: Endpoint, grantType?: string): URLSearchParams[];
  close(): Promise<void>;
}

const PATHS: Record<Endpoint | 'authorize', string> = {
  register: '/register',
  token: '/token',
  revoke: '/revoke',
  introspect: '/introspect',
  authorize: '/authorize',
};

export async function startMockSchool(): Promise<MockSchool> {
  const requests: MockRequest[] = [];
  let issued = 0;
  let base = '';
  const school: MockSchool = {
    get base() {
      return base;
    },
    requests,
    override: {},
    omit: new Set(),
    withhold: new Set(),
    formsTo: (endpoint, grantType) =>
      requests
        .filter(
          (request) =>
            request.endpoint === endpoint && (grantType === undefined || request.form.get('grant_type') === grantType),
        )
        .map((request) => request.form),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const answer = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };

  const tokens = (scope: string) => {
    issued += 1;
    return {
      access_token: `AT-CANARY-${issued}`,
      refresh_token: `RT-CANARY-${issued}`,
      token_type: 'Bearer',
      expires_in: 3600,
      scope,
    };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const endpoint = (Object.entries(PATHS).find(([, path]) => path === url.pathname)?.[0] ??
      (url.pathname.startsWith('/.well-known/') ? 'metadata' : 'other')) as MockRequest['endpoint'];
    const form = req.headers['content-type']?.includes('json') ? new URLSearchParams() : new URLSearchParams(text);
    const request: MockRequest = { endpoint, method: req.method ?? 'GET', form };
    requests.push(request);

    if (endpoint === 'register' || endpoint === 'token' || endpoint === 'revoke' || endpoint === 'introspect') {
      const special = school.override[endpoint]?.(request);
      if (special === 'reset') return void req.socket.destroy();
      if (special) return answer(res, special.status, special.body, special.headers);
    }
    switch (endpoint) {
      case 'metadata': {
        if (url.pathname !== '/.well-known/oauth-authorization-server') return answer(res, 404, { error: 'not_found' });
        const metadata: Record<string, unknown> = {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          revocation_endpoint: `${base}/revoke`,
          introspection_endpoint: `${base}/introspect`,
          code_challenge_methods_supported: ['S256'],
          response_types_supported: ['code'],
          authorization_response_iss_parameter_supported: true,
        };
        for (const name of school.omit) delete metadata[name];
        return answer(res, 200, metadata);
      }
      case 'authorize': {
        const target = new URL(url.searchParams.get('redirect_uri') ?? '');
        target.search = new URLSearchParams({
          code: `CODE-CANARY-${requests.length}`,
          state: url.searchParams.get('state') ?? '',
          iss: base,
        }).toString();
        res.writeHead(302, { location: target.href });
        return void res.end();
      }
      case 'register': {
        const body = JSON.parse(text) as { redirect_uris?: string[] };
        return answer(res, 201, {
          client_id: 'mock-client',
          redirect_uris: body.redirect_uris,
          token_endpoint_auth_method: 'none',
        });
      }
      case 'token':
        if (form.get('grant_type') === 'authorization_code') {
          granted = (lastScope ?? '')
            .split(' ')
            .filter((scope) => scope && !school.withhold.has(scope))
            .join(' ');
        }
        return answer(res, 200, tokens(granted));
      case 'revoke':
        return answer(res, 200, undefined);
      case 'introspect':
        return answer(res, 200, { active: false });
      default:
        return answer(res, 404, { error: 'not_found' });
    }
  };

  /** The scope of the last authorization request: the default grant is exactly what was asked. */
  let lastScope: string | undefined;
  let granted = '';
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/authorize')) lastScope = new URL(req.url, base).searchParams.get('scope') ?? undefined;
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return school;
}

/** Plays the browser: follows the authorization redirect to our listener, recording the prompts. */
export function approvingBrowser(): ConsentPrompter & { prompts: ConsentPrompt[]; settled(): Promise<void> } {
  const prompts: ConsentPrompt[] = [];
  const runs: Promise<unknown>[] = [];
  return {
    prompts,
    async settled() {
      await Promise.allSettled(runs);
    },
    async present(prompt) {
      prompts.push(prompt);
      const run = (async () => {
        const redirect = await fetch(prompt.url, { redirect: 'manual' });
        const location = redirect.headers.get('location');
        if (location) await (await fetch(location)).text();
      })();
      runs.push(run);
      run.catch(() => undefined);
    },
  };
}

/** A second server that must never be reached: it only counts. */
export async function startTrap(): Promise<{ base: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits += 1;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
