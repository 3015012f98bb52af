/**
 * 2025-11-25 sessions on several hosted instances: three real `school-mcp --hosted` processes on
 * one real redis-server, behind a real haproxy that balances round-robin with no stickiness, and
 * the MCP SDK's client on the 2025-11-25 revision. One client goes through the load balancer as a
 * deployment would; another picks the instance of each request itself, so that the crossings the
 * relay exists for (an answer landing on another instance than the question, a notification for a
 * GET stream held elsewhere) happen on every run, not by chance.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { completeConsent, SANDBOX_STAFF, startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { CookieBrowser, hiddenInput } from '../../tools/bench/cookie-browser.js';
import { freePort } from '../helpers/free-port.js';
import { describeWithHaproxy, startHaproxy, type Haproxy } from '../helpers/haproxy.js';
import { MemoryOAuthProvider } from '../helpers/memory-oauth-provider.js';
import { MAIN_JS } from '../helpers/mcp-stdio.js';
import { itWithPython, runPythonClient } from '../helpers/python-mcp-client.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { collectLines, type LineCollector } from '../helpers/stderr-lines.js';
import { allowAtSchoolMcp, CLIENT_REDIRECT, openConsent, returnFromSchool } from '../app/support/hosted-harness.js';

interface Instance {
  readonly child: ChildProcess;
  readonly lines: LineCollector;
  /** `http://127.0.0.1:PORT`, where it listens (the public URL is the load balancer's). */
  readonly listen: string;
}

const INSTANCES = 3;

function textOf(result: unknown): string {
  return ((result as { content: { text?: string }[] }).content ?? []).map((item) => item.text ?? '').join('\n');
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Polls `condition`; the limit is for the failure message only, far above a loaded machine's relay across instances. */
async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeWithHaproxy('2025-11-25 sessions on three hosted instances behind a round-robin load balancer', () => {
  let redis: RedisServer;
  let sandbox: RunningSandbox;
  let haproxy: Haproxy;
  let home: string;
  let publicUrl: string;
  const instances: Instance[] = [];

  async function startInstance(env: Record<string, string>, args: string[]): Promise<Instance> {
    const child = spawn(process.execPath, [MAIN_JS, '--hosted', '--host', '127.0.0.1', '--port', '0', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env,
    });
    const lines = collectLines(child.stderr);
    const listen = /listening="(http:\/\/127\.0\.0\.1:\d+)"/.exec(
      await lines.waitForLine(/serving hosted/, 30_000),
    )![1]!;
    return { child, lines, listen };
  }

  beforeAll(async () => {
    redis = await startRedisServer();
    sandbox = await startSandbox();
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    const integration = sandbox.registerIntegration({
      clientName: 'school-mcp (scale-out)',
      redirectUris: [`${publicUrl}/oauth/callback`],
    });
    home = await mkdtemp(join(tmpdir(), 'school-mcp-sessions-'));
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      SCHOOL_MCP_CLIENT_SECRET: integration.clientSecret,
      SCHOOL_MCP_STORE_KEY: randomBytes(32).toString('base64'),
    };
    const args = [
      '--public-url',
      publicUrl,
      '--school',
      sandbox.url,
      '--client-id',
      integration.clientId,
      '--store',
      redis.url,
      '--toolsets',
      'all',
      '--log-level',
      'debug',
    ];
    // All at once on an empty store: one creates the authorization server's keys, the others read them.
    instances.push(...(await Promise.all(Array.from({ length: INSTANCES }, () => startInstance(env, args)))));
    haproxy = await startHaproxy({
      port,
      backends: instances.map((instance, index) => ({
        name: `instance${index}`,
        port: Number(new URL(instance.listen).port),
      })),
    });
  }, 60_000);

  afterAll(async () => {
    await haproxy?.close();
    await Promise.all(
      instances.map(async ({ child }) => {
        const done = exited(child);
        child.kill('SIGTERM');
        await done;
      }),
    );
    await sandbox?.close();
    await redis?.close();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  /** Signs `user` in through the load balancer, as a 2025-11-25 client would, and returns the client's OAuth state. */
  async function signIn(user: string): Promise<MemoryOAuthProvider> {
    const provider = new MemoryOAuthProvider(CLIENT_REDIRECT, 'scale-out agent');
    const transport = new StreamableHTTPClientTransport(new URL(`${publicUrl}/mcp`), { authProvider: provider });
    await expect(new Client({ name: 'scale-out', version: '1.0.0' }).connect(transport)).rejects.toThrow();
    const browser = new CookieBrowser();
    const { consentUrl, csrf } = await openConsent(browser, provider.authorizationUrl!);
    const callback = await completeConsent(await allowAtSchoolMcp(browser, consentUrl, csrf), 'allow', { user });
    const { url } = await returnFromSchool(browser, callback);
    await transport.finishAuth(url.searchParams);
    return provider;
  }

  /** Opens a step-up link (through the load balancer), approves at the school as `user`, and returns school-mcp's last answer. */
  async function approveStepUp(link: string, user: string): Promise<Response> {
    const browser = new CookieBrowser();
    const csrf = hiddenInput(await (await browser.request(link)).text(), 'csrf_token')!;
    const toSchool = await browser.request(link, { form: { csrf_token: csrf, decision: 'allow' } });
    expect(toSchool.status).toBe(303);
    return browser.request(await completeConsent(toSchool.headers.get('location')!, 'allow', { user }));
  }

  interface Routed {
    readonly kind: string;
    readonly instance: number;
  }

  /**
   * A fetch that sends each request of the client straight to the instance `pick` names (as a load
   * balancer could have), and records where each went.
   */
  function routingFetch(pick: (kind: string) => number, routed: Routed[]) {
    return async (url: string | URL, init?: RequestInit): Promise<Response> => {
      let kind = init?.method ?? 'GET';
      if (typeof init?.body === 'string') {
        const message = JSON.parse(init.body) as {
          method?: string;
          params?: { name?: string };
          result?: unknown;
          error?: unknown;
        };
        kind =
          message.method === 'tools/call'
            ? `tools/call ${message.params?.name}`
            : (message.method ?? (message.result !== undefined || message.error !== undefined ? 'answer' : 'other'));
      }
      const instance = pick(kind);
      routed.push({ kind, instance });
      const target = new URL(url);
      const direct = new URL(instances[instance]!.listen);
      target.host = direct.host;
      return fetch(target, init);
    };
  }

  it('SCL-30 SCL-33 serves one session on every instance: initialize on one, tools on all, and a step-up asked on one instance and answered on another completes in the same call', async () => {
    const ada = SANDBOX_STAFF[0]!;
    const provider = await signIn(ada.sub);
    const routed: Routed[] = [];
    let turn = 0;
    // initialize on 0, the GET stream on 2, the tool call on 0 and the answer to its elicitation on 1; the rest in turn. So
    // instance 0's elicitation/create is written by 2 (on the GET stream), and its answer goes 1 → 0.
    const pick = (kind: string) =>
      ({ initialize: 0, GET: 2, 'tools/call create_member': 0, answer: 1 })[kind] ?? turn++ % INSTANCES;
    const client = new Client({ name: 'scale-out', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } });
    const completions: string[] = [];
    client.setNotificationHandler(
      'notifications/elicitation/complete',
      (notification) => void completions.push(String((notification.params as { elicitationId: string }).elicitationId)),
    );
    const prompted: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      const { url, elicitationId } = request.params as { url: string; elicitationId: string };
      prompted.push(elicitationId);
      expect((await approveStepUp(url, ada.sub)).status).toBe(200);
      return { action: 'accept' };
    });
    const transport = new StreamableHTTPClientTransport(new URL(`${publicUrl}/mcp`), {
      authProvider: provider,
      fetch: routingFetch(pick, routed),
    });
    await client.connect(transport);
    try {
      for (let round = 0; round < INSTANCES; round += 1) {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('create_member');
        expect(textOf(await client.callTool({ name: 'who_am_i', arguments: {} }))).toContain(ada.name);
      }
      const created = await client.callTool({
        name: 'create_member',
        arguments: { email: 'difference.engine@example.com', name: 'Difference Engine' },
      });
      expect(created.isError, textOf(created)).toBeFalsy();
      expect(prompted).toHaveLength(1);
      // Sent by instance 0 after the grant, written on the GET stream that instance 2 holds.
      await until(() => completions.includes(prompted[0]!), 'notifications/elicitation/complete on the GET stream');
    } finally {
      await client.close();
    }
    const served = (kind: string) =>
      new Set(routed.filter((entry) => entry.kind === kind).map((entry) => entry.instance));
    expect(served('initialize')).toEqual(new Set([0]));
    expect(served('tools/list')).toEqual(new Set([0, 1, 2]));
    expect(served('tools/call who_am_i')).toEqual(new Set([0, 1, 2]));
    expect(served('tools/call create_member')).toEqual(new Set([0]));
    expect(served('answer')).toEqual(new Set([1]));
  });

  it('SCL-30 serves a session through the round-robin load balancer, a step-up included, with no session lost between instances', async () => {
    const grace = SANDBOX_STAFF[1]!;
    const provider = await signIn(grace.sub);
    const client = new Client(
      { name: 'scale-out-lb', version: '1.0.0' },
      { capabilities: { elicitation: { url: {} } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      expect((await approveStepUp((request.params as { url: string }).url, grace.sub)).status).toBe(200);
      return { action: 'accept' };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${publicUrl}/mcp`), { authProvider: provider }));
    try {
      for (let call = 0; call < 2 * INSTANCES; call += 1)
        expect(textOf(await client.callTool({ name: 'who_am_i', arguments: {} }))).toContain(grace.name);
      const created = await client.callTool({
        name: 'create_member',
        arguments: { email: 'compiler@example.com', name: 'Compiler' },
      });
      expect(created.isError, textOf(created)).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  itWithPython(
    'SCL-30 serves the Python MCP SDK client, whose handshake is 2025-11-25, through the round-robin load balancer',
    async () => {
      const alan = SANDBOX_STAFF[2]!;
      const result = await runPythonClient(`${publicUrl}/mcp`, alan);
      expect(result.tools).toContain('who_am_i');
      expect(result.who_am_i).toContain(alan.name);
    },
  );

  it('SCL-31 SCL-32 answers a session only to the caller who opened it on every instance, and a DELETE on one instance ends it on all', async () => {
    const [alan, grace] = [SANDBOX_STAFF[2]!, SANDBOX_STAFF[1]!];
    const [owner, other] = [await signIn(alan.sub), await signIn(grace.sub)];
    const routed: Routed[] = [];
    const transport = new StreamableHTTPClientTransport(new URL(`${publicUrl}/mcp`), {
      authProvider: owner,
      fetch: routingFetch((kind) => (kind === 'initialize' ? 0 : 1), routed),
    });
    const client = new Client({ name: 'scale-out-owner', version: '1.0.0' });
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    expect(sessionId).toBeDefined();
    const post = (instance: number, token: string, body: unknown) =>
      fetch(`${instances[instance]!.listen}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify(body),
      });
    // Another person's token with this session id: the same 404 as an unknown session, on the instance that holds it and on one that does not.
    for (const instance of [0, 2]) {
      const refused = await post(instance, other.accessToken!, {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'who_am_i', arguments: {} },
      });
      expect(refused.status).toBe(404);
      expect(await refused.text()).not.toContain(alan.name);
    }
    // An answer or a notification another person posts on the session is relayed nowhere: refused first.
    expect(
      (await post(2, other.accessToken!, { jsonrpc: '2.0', id: 'forged.0', result: { action: 'accept' } })).status,
    ).toBe(404);
    const mine = await post(2, owner.accessToken!, {
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'who_am_i', arguments: {} },
    });
    expect(mine.status).toBe(200);
    expect(await mine.text()).toContain(alan.name);

    await transport.terminateSession();
    for (let instance = 0; instance < INSTANCES; instance += 1) {
      const ended = await post(instance, owner.accessToken!, { jsonrpc: '2.0', id: 9, method: 'tools/list' });
      expect(ended.status).toBe(404);
    }
    await client.close();
  });
});
