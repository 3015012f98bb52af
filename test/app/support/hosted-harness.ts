/**
 * A hosted school-mcp in the test process against a real sandbox school over HTTP, with a real
 * grant store on disk, and the steps an MCP client and its user take, done with plain fetch.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createInProcessBus,
  openDirectoryStore,
  openRedisStore,
  parseStoreKeys,
  parseStoreLocation,
  type GrantStore,
  type MessageBus,
  type RedisGrantStore,
} from '../../../src/grant-store/index.js';
import { callerKey, parsePublicUrl, startHostedServer, stepUpStateKey } from '../../../src/hosted/index.js';
import { openHostedSchool } from '../../../src/app/hosted-school.js';
import { loadConfig } from '../../../src/config/index.js';
import { createLogger } from '../../../src/log.js';
import { openCallerEndpoints } from '../../../src/transports/index.js';
import { completeConsent, startSandbox, type RunningSandbox, type SandboxOptions } from '@school-mcp/sandbox';
import { CookieBrowser, hiddenInput } from '../../../tools/bench/cookie-browser.js';
import { freePort } from '../../helpers/free-port.js';

type PublicUrl = Extract<ReturnType<typeof parsePublicUrl>, { ok: true }>['url'];
type HostedServer = Awaited<ReturnType<typeof startHostedServer>>;

export const CLIENT_REDIRECT = 'http://127.0.0.1:47011/callback';

export interface Hosted {
  readonly sandbox: RunningSandbox;
  readonly server: HostedServer;
  readonly store: GrantStore;
  readonly storeDir: string;
  readonly base: string;
  readonly logLines: string[];
  /** Every instance, the first being `server`; see `HostedOptions.instances`. */
  readonly instances: readonly HostedInstance[];
  /** The school integration all instances share, as the school's staff registered it. */
  readonly integration: { readonly clientId: string; readonly clientSecret: string };
  close(): Promise<void>;
}

/** One hosted school-mcp of several on one store, as behind a load balancer. */
interface HostedInstance {
  readonly server: HostedServer;
  /** This instance's own connection to the shared store (its own Redis client, or store object on the directory). */
  readonly store: GrantStore;
  /** Where this instance listens: requests sent here reach it, whatever the public URL. */
  readonly url: string;
}

export interface HostedOptions {
  accessTokenTtl?: number;
  sandbox?: SandboxOptions;
  /** What a first sign-in asks the school for (besides openid profile). */
  schoolScopes?: string[];
  /** Serve the school's real tools at /mcp, as the caller; otherwise /mcp echoes the caller. */
  tools?: boolean;
  /** Limits of the fetch of a URL client_id's metadata document. */
  clientMetadataDocuments?: {
    timeoutMs?: number;
    cacheSeconds?: number;
    refusalCacheSeconds?: number;
    maxBytes?: number;
  };
  /** Keep the grants in this Redis (`redis://…`, as `--store` takes it) instead of a directory. */
  redisUrl?: string;
  /**
   * How many instances to start on the one store and sandbox (1 when absent): each with its own
   * store connection, all answering for the first one's public URL with one school integration.
   */
  instances?: number;
  /** What the servers see of the store, e.g. a store that fails some calls on request. */
  wrapStore?: (store: GrantStore) => GrantStore;
  /** Callers an instance holds, overall and per person (HOST-46); 64 and the default when absent. */
  callers?: { maxCallers?: number; maxCallersPerPerson?: number };
  /** Bounds of open registration (HOST-43, HOST-44); the server's defaults when absent. */
  registration?: { perAddressPerHour?: number; cap?: number; unusedSeconds?: number };
  /** A path for the public URL (`/mcp-gw`): the server is then reached at `http://127.0.0.1:PORT/mcp-gw`. */
  publicPath?: string;
  /** How long a tool call waits for a step-up's approval (`--consent-wait`); 45 s when absent. */
  consentWaitSeconds?: number;
}

export async function startHosted(options: HostedOptions = {}): Promise<Hosted> {
  const sandbox = await startSandbox(options.sandbox);
  const storeDir = await mkdtemp(join(tmpdir(), 'school-mcp-hosted-'));
  const keys = parseStoreKeys(randomBytes(32).toString('base64'));
  if (!keys.ok) throw new Error(keys.reason);
  const logLines: string[] = [];
  const logger = createLogger({ level: 'debug', write: (line) => logLines.push(line) });
  const redis = options.redisUrl === undefined ? undefined : parseStoreLocation(options.redisUrl);
  if (redis !== undefined && (!redis.ok || redis.location.kind !== 'redis'))
    throw new Error(`not a Redis URL: ${options.redisUrl}`);
  const redisStores: RedisGrantStore[] = [];
  const buses: MessageBus[] = [];
  // On a directory the instances share this process, so one in-process bus joins them.
  const inProcessBus = createInProcessBus();
  const openStore = async (): Promise<{ store: GrantStore; bus: MessageBus }> => {
    if (redis?.ok && redis.location.kind === 'redis') {
      const redisStore = await openRedisStore({ address: redis.location.address, keyring: keys.keyring, logger });
      redisStores.push(redisStore);
      const bus = await redisStore.openMessageBus();
      buses.push(bus);
      return { store: redisStore, bus };
    }
    return {
      store: await openDirectoryStore({ dir: join(storeDir, 'store'), keyring: keys.keyring, logger }),
      bus: inProcessBus,
    };
  };
  let integration: { clientId: string; clientSecret: string } | undefined;
  /** Opened once the first instance made the store's secrets, from which the step-up state key comes. */
  let school: Awaited<ReturnType<typeof openHostedSchool>> | undefined;
  const allEndpoints: Awaited<ReturnType<typeof openCallerEndpoints>>[] = [];

  const startInstance = async (publicUrl: PublicUrl | undefined, port = 0): Promise<HostedInstance> => {
    const { store, bus } = await openStore();
    // As `school-mcp --hosted` wires it: 2025-11-25 sessions shared through the store, so that
    // the instances serve each other's sessions.
    const endpoints = await openCallerEndpoints({
      maxCallers: 64,
      ...options.callers,
      onerror: () => undefined,
      sharing: { store, bus, instance: randomBytes(9).toString('base64url') },
    });
    allEndpoints.push(endpoints);
    const server = await startHostedServer({
      host: '127.0.0.1',
      port,
      store: options.wrapStore?.(store) ?? store,
      logger,
      ...(publicUrl === undefined ? {} : { publicUrl }),
      ...(options.accessTokenTtl === undefined ? {} : { accessTokenTtl: options.accessTokenTtl }),
      ...(options.clientMetadataDocuments === undefined
        ? {}
        : { clientMetadataDocuments: options.clientMetadataDocuments }),
      ...(options.registration === undefined ? {} : { registration: options.registration }),
      school: (url) => {
        integration ??= sandbox.registerIntegration({
          clientName: 'school-mcp (hosted)',
          redirectUris: [url.schoolCallback],
        });
        return {
          schoolUrl: new URL(sandbox.url),
          clientId: integration.clientId,
          clientSecret: integration.clientSecret,
          callback: url.schoolCallback,
          scopes: options.schoolScopes ?? ['account:read'],
        };
      },
      mcp: async (req, res, caller, access) => {
        if (school === undefined) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(caller));
          return;
        }
        const ready = school;
        await endpoints.handle(req, res, { caller: callerKey(caller), person: caller.sub }, () =>
          ready.open(access.tokens, access.account, access.stepUps),
        );
      },
    });
    return { server, store, url: server.listenUrl };
  };

  const first =
    options.publicPath === undefined
      ? await startInstance(undefined)
      : await startAtPath(options.publicPath, startInstance);
  // Every tool, so that a test can reach a write that is not in the default list by name.
  if (options.tools) {
    school = await openHostedSchool({
      config: loadConfig(
        [
          '--school',
          sandbox.url,
          '--toolsets',
          'all',
          ...(options.consentWaitSeconds === undefined ? [] : ['--consent-wait', String(options.consentWaitSeconds)]),
        ],
        {},
      ),
      schoolUrl: new URL(sandbox.url),
      logger,
      version: '0.0.0-test',
      stateKey: await stepUpStateKey(first.store),
    });
  }
  const instances = [first];
  for (let index = 1; index < (options.instances ?? 1); index += 1)
    instances.push(await startInstance(first.server.publicUrl));
  return {
    sandbox,
    server: first.server,
    store: first.store,
    storeDir,
    base: first.server.publicUrl.base,
    logLines,
    instances,
    integration: integration!,
    async close() {
      for (const endpoints of allEndpoints) await endpoints.close();
      for (const instance of instances) await instance.server.close();
      await sandbox.close();
      for (const bus of buses) await bus.close();
      await inProcessBus.close();
      for (const redisStore of redisStores) await redisStore.close();
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}

/** An instance whose public URL has a path, on a port picked first (another process may take it in between: then a new one). */
async function startAtPath(
  publicPath: string,
  start: (publicUrl: PublicUrl, port: number) => Promise<HostedInstance>,
): Promise<HostedInstance> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const parsed = parsePublicUrl(`http://127.0.0.1:${port}${publicPath}`);
    if (!parsed.ok) throw new Error(parsed.reason);
    try {
      return await start(parsed.url, port);
    } catch (error) {
      if (attempt >= 3 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
}

export interface McpClient {
  readonly clientId: string;
  readonly clientSecret?: string;
}

export async function registerMcpClient(base: string, metadata: Record<string, unknown> = {}): Promise<McpClient> {
  const response = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Test Agent',
      redirect_uris: [CLIENT_REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...metadata,
    }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status !== 201) throw new Error(`registration failed (${response.status}): ${JSON.stringify(body)}`);
  return {
    clientId: String(body.client_id),
    ...(typeof body.client_secret === 'string' ? { clientSecret: body.client_secret } : {}),
  };
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(
  base: string,
  client: McpClient,
  challenge: string,
  overrides: Record<string, string | undefined> = {},
): URL {
  const url = new URL(`${base}/oauth/authorize`);
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: CLIENT_REDIRECT,
    scope: 'mcp',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'client-state',
    resource: base,
    ...overrides,
  };
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url;
}

/** The browser at school-mcp's consent page of a fresh authorization request: its URL and CSRF token. */
export async function openConsent(
  browser: CookieBrowser,
  url: URL,
): Promise<{ consentUrl: URL; html: string; csrf: string }> {
  // Under the public URL's path, if it has one.
  const { response, url: consentUrl } = await browser.follow(
    url,
    (next) => next.pathname.endsWith('/oauth/authorize') || next.pathname.includes('/consent/'),
  );
  const html = await response.text();
  if (response.status !== 200) throw new Error(`no consent page (${response.status}): ${html.slice(0, 300)}`);
  const csrf = hiddenInput(html, 'csrf_token');
  if (csrf === undefined) throw new Error('the consent page has no CSRF token');
  return { consentUrl, html, csrf };
}

/** Allow at school-mcp; returns where the browser is sent (the school's authorization URL). */
export async function allowAtSchoolMcp(browser: CookieBrowser, consentUrl: URL, csrf: string): Promise<URL> {
  const answer = await browser.request(consentUrl, { form: { csrf_token: csrf, decision: 'allow' } });
  const location = answer.headers.get('location');
  if (answer.status !== 303 || location === null)
    throw new Error(`allow was refused (${answer.status}): ${(await answer.text()).slice(0, 300)}`);
  return new URL(location);
}

/** From the school's answer (school-mcp's callback URL) to the MCP client's redirect, or the page where it stopped. */
export async function returnFromSchool(
  browser: CookieBrowser,
  callback: URL,
): Promise<{ response: Response; url: URL }> {
  return browser.follow(callback, (next) => !next.href.startsWith(CLIENT_REDIRECT));
}

/** The person's browser, from an MCP client's authorization URL through both consents as `user`, to where it lands (the client's redirect). */
export async function approveSignIn(authorize: URL | string, user: string): Promise<URL> {
  const browser = new CookieBrowser();
  const { consentUrl, csrf } = await openConsent(browser, new URL(authorize));
  const callback = await completeConsent(await allowAtSchoolMcp(browser, consentUrl, csrf), 'allow', { user });
  return (await returnFromSchool(browser, callback)).url;
}

/** The whole sign-in of one staff member through one MCP client: returns the client's code. */
export async function signIn(
  hosted: Pick<Hosted, 'base'>,
  client: McpClient,
  user: string,
  options: { browser?: CookieBrowser; challenge?: string } = {},
): Promise<{ code: string; verifier: string; browser: CookieBrowser }> {
  const browser = options.browser ?? new CookieBrowser();
  const { verifier, challenge } = pkce();
  const { consentUrl, csrf } = await openConsent(
    browser,
    authorizeUrl(hosted.base, client, options.challenge ?? challenge),
  );
  const schoolAuthorize = await allowAtSchoolMcp(browser, consentUrl, csrf);
  const callback = await completeConsent(schoolAuthorize, 'allow', { user });
  const { url } = await returnFromSchool(browser, callback);
  const code = url.searchParams.get('code');
  if (code === null) throw new Error(`no code for the client: ${url.href}`);
  return { code, verifier, browser };
}

export async function tokenRequest(
  base: string,
  fields: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export function exchange(
  base: string,
  client: McpClient,
  code: string,
  verifier: string,
  extra: Record<string, string> = {},
) {
  return tokenRequest(base, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: CLIENT_REDIRECT,
    client_id: client.clientId,
    resource: base,
    ...extra,
  });
}

export async function callMcp(base: string, token: string | undefined): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
}

/** Opens a step-up link, continues to the school, approves there as `user`, and returns school-mcp's last answer. */
export async function approveStepUp(link: string, user: string): Promise<Response> {
  const browser = new CookieBrowser();
  const page = await browser.request(link);
  const csrf = hiddenInput(await page.text(), 'csrf_token')!;
  const toSchool = await browser.request(link, { form: { csrf_token: csrf, decision: 'allow' } });
  if (toSchool.status !== 303)
    throw new Error(`the step-up page answered ${toSchool.status} to Allow, not a redirect to the school`);
  return browser.request(await completeConsent(toSchool.headers.get('location')!, 'allow', { user }));
}

/** Where a 2026-07-28 retry goes: the state it carries back (possibly replaced), and another URL to send it to. */
export type RetrySteering = (state: string) => { readonly state: string; readonly url?: string };

export interface StatelessConnection {
  readonly client: Client;
  readonly accessToken: string;
}

/**
 * A stateless (2026-07-28) client declaring URL elicitation, signed in as `user` at `hosted`.
 * Every `tools/call` that carries a `requestState` passes through `steer`, which may replace the
 * state (as a hostile client would) or send the retry to another instance.
 */
export async function connectStatelessClient(
  hosted: Hosted,
  user: string,
  steer: RetrySteering = (state) => ({ state }),
): Promise<StatelessConnection> {
  const registered = await registerMcpClient(hosted.base);
  const { code, verifier } = await signIn(hosted, registered, user);
  const accessToken = String((await exchange(hosted.base, registered, code, verifier)).body.access_token);
  const steering = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    if (typeof init?.body === 'string') {
      const message = JSON.parse(init.body) as { method?: string; params?: { requestState?: unknown } };
      if (message.method === 'tools/call' && typeof message.params?.requestState === 'string') {
        const steered = steer(message.params.requestState);
        message.params.requestState = steered.state;
        return fetch(steered.url ?? url, { ...init, body: JSON.stringify(message) });
      }
    }
    return fetch(url, init);
  };
  const client = new Client(
    { name: 'hosted-stateless-test', version: '1.0.0' },
    { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${hosted.base}/mcp`), {
      fetch: steering,
      requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
    }),
  );
  return { client, accessToken };
}
