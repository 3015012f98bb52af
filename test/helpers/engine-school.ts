/**
 * A school made of parts the project did not write: node-oidc-provider as its authorization
 * server and a small protected API beside it, on one origin (127.0.0.1, port 0), as the contract's
 * single {base_url}. Plus the user, who opens sign-in links over plain HTTP with a cookie jar,
 * signs in and answers the consent screen.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Provider from 'oidc-provider';
import { createEngineApi, isApiPath, type EngineApi } from './engine-api.js';
import { handleInteraction } from './engine-interaction.js';
import { API_CLIENT, createEngine, ENGINE_PATHS, INTERACTION_PREFIX } from './engine-provider.js';

export interface EngineSchoolOptions {
  /** Lifetime in seconds of the n-th access token issued for the API (default 600). */
  accessTokenTtl?: (issued: number) => number;
}

interface EngineUser {
  /** Every sign-in link this user opened, in order. */
  readonly links: string[];
  /** Opens the link, signs in if asked, answers every consent screen, and follows the redirect home. Returns the status of the last page. */
  open(link: string, decision?: 'allow' | 'deny'): Promise<number>;
}

export interface EngineSchool {
  readonly url: string;
  readonly resource: string;
  readonly provider: Provider;
  readonly api: EngineApi;
  /** Successful token endpoint grants by `grant_type`. */
  readonly grants: Record<string, number>;
  /** Every request the school received, API and engine alike. */
  readonly requests: { method: string; path: string }[];
  /** Client registrations the engine accepted. */
  readonly registrations: Record<string, unknown>[];
  readonly user: EngineUser;
  /** The engine's RFC 7662 answer for a token, asked as the API's own client. */
  introspect(token: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startEngineSchool(options: EngineSchoolOptions = {}): Promise<EngineSchool> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const resource = url;
  const grants: Record<string, number> = {};
  const registrations: Record<string, unknown>[] = [];
  const requests: { method: string; path: string }[] = [];
  const provider = createEngine({
    issuer: url,
    resource,
    accessTokenTtl: options.accessTokenTtl ?? (() => 600),
    onGrant: (type) => {
      grants[type] = (grants[type] ?? 0) + 1;
    },
  });
  provider.on('registration_create.success', (_ctx: unknown, client: { metadata(): Record<string, unknown> }) =>
    registrations.push(client.metadata()),
  );
  const api = createEngineApi(url, resource);
  const engine = provider.callback();

  server.on('request', (req, res) => {
    const path = new URL(req.url ?? '/', url).pathname;
    requests.push({ method: req.method ?? 'GET', path });
    const fail = (error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    };
    if (isApiPath(path)) return void api.handle(req, res).catch(fail);
    if (path.startsWith(INTERACTION_PREFIX)) return void handleInteraction(provider, req, res).catch(fail);
    return void engine(req, res);
  });

  return {
    url,
    resource,
    provider,
    api,
    grants,
    requests,
    registrations,
    user: createUser(url),
    async introspect(token) {
      const response = await fetch(`${url}${ENGINE_PATHS.introspection}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${API_CLIENT.id}:${API_CLIENT.secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ token }),
      });
      return (await response.json()) as Record<string, unknown>;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser reduced to what sign-in needs: cookies for the school, redirects, forms. */
function createUser(origin: string): EngineUser {
  const cookies = new Map<string, string>();
  const links: string[] = [];

  const visit = async (target: URL, form?: URLSearchParams): Promise<Response> => {
    const ours = target.origin === origin;
    const headers: Record<string, string> = {};
    if (ours && cookies.size > 0)
      headers['cookie'] = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(target, {
      method: form ? 'POST' : 'GET',
      headers,
      redirect: 'manual',
      ...(form ? { body: form } : {}),
    });
    if (ours) {
      for (const cookie of response.headers.getSetCookie()) {
        const [pair = '', ...attributes] = cookie.split(';');
        const at = pair.indexOf('=');
        const name = pair.slice(0, at).trim();
        const expired = attributes.some((attribute) => /^\s*expires=Thu, 01 Jan 1970/i.test(attribute));
        if (expired) cookies.delete(name);
        else cookies.set(name, pair.slice(at + 1).trim());
      }
    }
    return response;
  };

  return {
    links,
    async open(link, decision = 'allow') {
      links.push(link);
      let current = new URL(link);
      let response = await visit(current);
      for (let step = 0; step < 12; step += 1) {
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          current = new URL(location, current);
          response = await visit(current);
          continue;
        }
        const body = await response.text();
        const action = /<form method="post" action="([^"]+)">/.exec(body)?.[1];
        const prompt = /name="prompt" value="([^"]+)"/.exec(body)?.[1];
        if (response.status !== 200 || !action || current.origin !== origin) return response.status;
        // Signing in is always "allow"; the decision is the user's answer to the consent screen.
        const answer = prompt === 'login' ? 'allow' : decision;
        current = new URL(action, current);
        response = await visit(current, new URLSearchParams({ prompt: prompt ?? '', decision: answer }));
      }
      throw new Error(`the sign-in from ${link} did not finish`);
    },
  };
}
