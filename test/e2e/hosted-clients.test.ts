/**
 * `school-mcp --hosted` as a real process against a sandbox school, with a public URL without and
 * with a path, used by two people through several MCP clients each, of every kind in
 * `CLIENT_KINDS` (the MCP SDK's TypeScript client with its OAuth provider, the Python SDK's client
 * as a child process, mcp-remote at its defaults as a child process whose consents are given in
 * Chromium): one school grant per person, shared by their clients, that only grows; a sign-out on
 * one client that sends every client of that person, and none of the other's, through a new
 * sign-in by itself, after which each continues its MCP session.
 */
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDirectoryStore, parseStoreKeys, type GrantStore } from '../../src/grant-store/index.js';
import { SCHOOL_GRANTS } from '../../src/hosted/index.js';
import { createLogger } from '../../src/log.js';
import { SANDBOX_STAFF, startSandbox, type RunningSandbox, type StaffMember } from '@school-mcp/sandbox';
import { describeInBrowser, launchBrowser } from '../helpers/browser.js';
import { freePort } from '../helpers/free-port.js';
import { approveInChromium, startMcpRemote } from '../helpers/mcp-remote.js';
import { MemoryOAuthProvider } from '../helpers/memory-oauth-provider.js';
import { MAIN_JS } from '../helpers/mcp-stdio.js';
import { describeWithPython, startPythonClient } from '../helpers/python-mcp-client.js';
import { collectLines } from '../helpers/stderr-lines.js';
import {
  approveSignIn,
  approveStepUp,
  CLIENT_REDIRECT,
  exchange,
  registerMcpClient,
  signIn,
  tokenRequest,
} from '../app/support/hosted-harness.js';

interface CallResult {
  readonly isError: boolean;
  readonly text: string;
}

/** One MCP client of one person, driven as that person would: a sign-in it asks for is approved, and the call retried. */
interface PersonClient {
  readonly kind: string;
  readonly member: StaffMember;
  /** How many times the client sent the person to sign in, the first time included. */
  signIns(): number;
  call(name: string, args?: Record<string, unknown>): Promise<CallResult>;
  /** The access token it holds, where the client lets a test read it. */
  accessToken(): string | undefined;
  /** How many MCP sessions it opened (a client that signs in again keeps its session: HOST-61). */
  sessions(): number;
  close(): Promise<void>;
}

interface ClientKind {
  readonly name: string;
  connect(mcpUrl: URL, member: StaffMember): Promise<PersonClient>;
}

function textOf(result: unknown): string {
  return ((result as { content?: { text?: string }[] }).content ?? []).map((item) => item.text ?? '').join('\n');
}

/**
 * The TypeScript SDK's client with its OAuth provider: a 401 makes it refresh, and when the refresh
 * is refused (`invalid_grant`), forget its tokens and send the person to sign in; the call fails
 * with `UnauthorizedError`, and the application finishes the sign-in with the code and calls again
 * on the same connection, in the same MCP session.
 */
const TYPESCRIPT_SDK: ClientKind = {
  name: 'TypeScript SDK',
  async connect(mcpUrl, member) {
    const provider = new MemoryOAuthProvider(CLIENT_REDIRECT, `TypeScript agent of ${member.name}`);
    let signIns = 0;
    let client: Client | undefined;
    let transport: StreamableHTTPClientTransport | undefined;
    let sessions = 0;
    const signInAgain = async (error: unknown) => {
      if (!(error instanceof UnauthorizedError) || provider.authorizationUrl === undefined) throw error;
      signIns += 1;
      const landed = await approveSignIn(provider.authorizationUrl, member.sub);
      provider.authorizationUrl = undefined;
      await transport!.finishAuth(landed.searchParams);
    };
    const open = async () => {
      for (let attempt = 0; ; attempt += 1) {
        transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
        const candidate = new Client({ name: 'hosted-clients-e2e', version: '1.0.0' });
        try {
          await candidate.connect(transport);
          client = candidate;
          sessions += 1;
          return;
        } catch (error) {
          if (attempt > 0) throw error;
          await signInAgain(error);
        }
      }
    };
    await open();
    return {
      kind: this.name,
      member,
      signIns: () => signIns,
      async call(name, args = {}) {
        try {
          const result = await client!.callTool({ name, arguments: args });
          return { isError: result.isError === true, text: textOf(result) };
        } catch (error) {
          await signInAgain(error);
          const result = await client!.callTool({ name, arguments: args });
          return { isError: result.isError === true, text: textOf(result) };
        }
      },
      accessToken: () => provider.accessToken,
      sessions: () => sessions,
      close: async () => {
        await client?.close();
      },
    };
  },
};

/**
 * The Python SDK's client: a 401 makes it send the person to sign in inside the call and send the
 * request again with the new token, in the same MCP session (a session is the person's through
 * this client, whatever grant: HOST-61).
 */
const PYTHON_SDK: ClientKind = {
  name: 'Python SDK',
  async connect(mcpUrl, member) {
    const python = await startPythonClient(mcpUrl.href, member);
    return {
      kind: this.name,
      member,
      signIns: () => python.signIns,
      async call(name, args = {}) {
        const outcome = await python.call(name, args);
        if (outcome.kind === 'failed') throw new Error(`the Python client failed: ${outcome.error}`);
        return { isError: outcome.isError, text: outcome.text };
      },
      accessToken: () => undefined,
      // It never opens another: a call in a session the server no longer knew would fail above.
      sessions: () => 1,
      close: () => python.close(),
    };
  },
};

/** Chromium, where the person gives mcp-remote's consents; launched by the suite. */
let chromium: Browser | undefined;
/** Each mcp-remote's own home (one installation each: its token cache and `$BROWSER`). */
const remoteHomes: string[] = [];

/**
 * mcp-remote at its defaults, one installation per client: at its start it opens the browser and
 * waits for the code on its loopback callback; when the server refuses its token in the middle of
 * a call (a sign-out elsewhere), its refresh is refused too, and it opens the browser again,
 * listens again on its callback port, and sends the call again once the person has signed in: the
 * host sees the call answered, after a browser page, with no restart (mcp-remote 0.15.1). Its
 * tokens are in its cache, `mcp-auth/mcp-remote-<version>/<hash>_tokens.json`.
 */
const MCP_REMOTE: ClientKind = {
  name: 'mcp-remote',
  async connect(mcpUrl, member) {
    const home = await mkdtemp(join(tmpdir(), 'school-mcp-clients-mcp-remote-'));
    remoteHomes.push(home);
    let signIns = 0;
    const remote = await startMcpRemote({
      mcpUrl: mcpUrl.href,
      home,
      onBrowser: async (url) => {
        signIns += 1;
        await approveInChromium(chromium!, url, member);
      },
    });
    const cache = join(home, 'mcp-auth');
    return {
      kind: this.name,
      member,
      signIns: () => signIns,
      async call(name, args = {}) {
        const result = await Promise.race([
          remote.client.callTool({ name, arguments: args }, { timeout: 120_000 }),
          remote.failed,
        ]);
        return { isError: result.isError === true, text: textOf(result) };
      },
      accessToken() {
        for (const version of readdirSync(cache)) {
          const file = readdirSync(join(cache, version)).find((name) => name.endsWith('_tokens.json'));
          if (file !== undefined)
            return (JSON.parse(readFileSync(join(cache, version, file), 'utf8')) as { access_token?: string })
              .access_token;
        }
        return undefined;
      },
      // mcp-remote opens a new session by itself when the server answers that it no longer knows its session.
      sessions: () => 1 + remote.stderr.stderr.filter((line) => /Remote session expired/.test(line)).length,
      close: () => remote.close(),
    };
  },
};

/** Every kind of client the hosted server is tried with; another kind is one more entry. */
const CLIENT_KINDS: readonly ClientKind[] = [TYPESCRIPT_SDK, PYTHON_SDK, MCP_REMOTE];

/** school-mcp at `publicPath` under a port it is told, since the school's integration must know its callback before it starts. */
async function startHostedProcess(
  sandbox: RunningSandbox,
  storeDir: string,
  key: string,
  publicPath: string,
): Promise<{ child: ChildProcess; publicUrl: string; integration: { clientId: string; clientSecret: string } }> {
  for (;;) {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}${publicPath}`;
    const integration = sandbox.registerIntegration({
      clientName: 'school-mcp (hosted e2e)',
      redirectUris: [`${publicUrl}/oauth/callback`],
    });
    const started = spawn(
      process.execPath,
      [
        MAIN_JS,
        '--hosted',
        '--public-url',
        publicUrl,
        '--port',
        String(port),
        '--school',
        sandbox.url,
        '--client-id',
        integration.clientId,
        '--store',
        storeDir,
        '--toolsets',
        'all',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, SCHOOL_MCP_CLIENT_SECRET: integration.clientSecret, SCHOOL_MCP_STORE_KEY: key },
      },
    );
    const lines = collectLines(started.stderr);
    const outcome = await Promise.race([
      lines.waitForLine(/serving hosted/, 60_000).then(() => 'up' as const),
      new Promise<'exited'>((done) => started.once('exit', () => done('exited'))),
    ]);
    if (outcome === 'up') return { child: started, publicUrl, integration };
    // Another process took the port between its release and this start: try another.
    if (!lines.stderr.some((line) => /EADDRINUSE/.test(line)))
      throw new Error(`school-mcp --hosted did not start:\n${lines.stderr.join('\n')}`);
  }
}

const [ADA, GRACE] = [SANDBOX_STAFF[0]!, SANDBOX_STAFF[1]!];

describeWithPython('school-mcp --hosted with several clients per person', () => {
  describeInBrowser('in Chromium', () => {
    beforeAll(async () => {
      chromium = await launchBrowser();
    });
    afterAll(async () => {
      await chromium?.close();
      await Promise.all(remoteHomes.map((home) => rm(home, { recursive: true, force: true })));
    });
    // The rotated-out refresh token is the engine's, whatever the path: it runs once, without one.
    describe.each([
      ['without a path', '', true],
      ['with a path', '/mcp-gw', false],
    ])('public URL %s', (_label, publicPath, everyCase) => {
      suite(publicPath, everyCase);
    });
  });
});

/** The scenarios against one school-mcp process whose public URL has `publicPath`; those that do not depend on it only when `everyCase`. */
function suite(publicPath: string, everyCase: boolean): void {
  let sandbox: RunningSandbox;
  let integration: { clientId: string; clientSecret: string };
  let child: ChildProcess;
  let storeDir: string;
  let store: GrantStore;
  let publicUrl: string;
  let mcpUrl: URL;
  const opened: PersonClient[] = [];

  async function connect(kind: ClientKind, member: StaffMember): Promise<PersonClient> {
    const client = await kind.connect(mcpUrl, member);
    opened.push(client);
    return client;
  }

  /** RFC 7662 at the school, as the integration: whether the school still honours `token`. */
  async function activeAtSchool(token: string): Promise<boolean> {
    const response = await fetch(`${sandbox.url}/api/oauth/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: integration.clientId, client_secret: integration.clientSecret }),
    });
    return ((await response.json()) as { active?: boolean }).active === true;
  }

  async function schoolGrantOf(
    member: StaffMember,
  ): Promise<{ scopes: string[]; refreshToken: string; accessToken: string }> {
    return (await store.read(SCHOOL_GRANTS, member.sub)) as {
      scopes: string[];
      refreshToken: string;
      accessToken: string;
    };
  }

  /** A request to `/mcp` with a token a client held, as that client would send it. */
  async function mcpStatus(token: string): Promise<{ status: number; challenge: string | null }> {
    const response = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'token-probe', version: '1.0.0' },
        },
      }),
    });
    await response.body?.cancel();
    return { status: response.status, challenge: response.headers.get('www-authenticate') };
  }

  beforeAll(async () => {
    sandbox = await startSandbox();
    storeDir = await mkdtemp(join(tmpdir(), 'school-mcp-hosted-clients-'));
    const key = randomBytes(32).toString('base64');
    const keys = parseStoreKeys(key);
    if (!keys.ok) throw new Error(keys.reason);
    const started = await startHostedProcess(sandbox, storeDir, key, publicPath);
    child = started.child;
    integration = started.integration;
    publicUrl = started.publicUrl;
    mcpUrl = new URL(`${publicUrl}/mcp`);
    // The test reads the school grants the process keeps, with the same key (the store's files are sealed).
    store = await openDirectoryStore({
      dir: storeDir,
      keyring: keys.keyring,
      logger: createLogger({ write: () => {} }),
    });
  });

  afterAll(async () => {
    await Promise.allSettled(opened.map((client) => client.close()));
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    await sandbox?.close();
    if (storeDir !== undefined) await rm(storeDir, { recursive: true, force: true });
  });

  it("HOST-32 shows a step-up on one client on the person's other clients, keeps it through a later client's sign-in, and revokes every replaced school token", async () => {
    const [first, ...later] = CLIENT_KINDS;
    const stepping = await connect(first!, ADA);
    // Ada's other clients, connected before the step-up.
    const watching = await Promise.all(later.map((kind) => connect(kind, ADA)));
    const base = await schoolGrantOf(ADA);
    expect(base.scopes).not.toContain('comments:read');

    // A step-up on the first client: the link in its result, approved at the school as Ada.
    const needed = await stepping.call('list_comments');
    expect(needed.isError).toBe(true);
    const link = /https?:\/\/\S+\/step-up\/[A-Za-z0-9_-]+/.exec(needed.text)?.[0];
    expect(link, needed.text).toBeDefined();
    expect((await approveStepUp(link!, ADA.sub)).status).toBe(200);
    expect((await stepping.call('list_comments')).isError).toBe(false);
    const stepped = await schoolGrantOf(ADA);
    expect(stepped.scopes).toContain('comments:read');
    // The grant the step-up replaced is revoked at the school.
    expect(await activeAtSchool(base.refreshToken)).toBe(false);
    for (const client of watching) {
      const comments = await client.call('list_comments');
      expect(comments.isError, `${client.kind}: ${comments.text}`).toBe(false);
    }

    // Every later client signs in with the base scopes only, yet sees the permission, and so does the first.
    const revocationsBefore = sandbox.countRequests('/api/oauth/revoke');
    for (const kind of [...later, first!]) {
      const another = await connect(kind, ADA);
      const comments = await another.call('list_comments');
      expect(comments.isError, `${kind.name}: ${comments.text}`).toBe(false);
    }
    expect((await stepping.call('list_comments')).isError).toBe(false);
    const kept = await schoolGrantOf(ADA);
    expect(kept.scopes).toContain('comments:read');
    expect(kept.refreshToken).toBe(stepped.refreshToken);
    expect(await activeAtSchool(kept.refreshToken)).toBe(true);
    // Each of those sign-ins' own school tokens (a refresh and an access token) were revoked as they were discarded.
    expect(sandbox.countRequests('/api/oauth/revoke') - revocationsBefore).toBeGreaterThanOrEqual(
      2 * CLIENT_KINDS.length,
    );

    // An equal sign-in replaces the grant instead (fresh, and known to be alive): the replaced refresh token is revoked.
    const graceFirst = await connect(first!, GRACE);
    const graceBefore = await schoolGrantOf(GRACE);
    await connect(later[0] ?? first!, GRACE);
    const graceAfter = await schoolGrantOf(GRACE);
    expect(graceAfter.refreshToken).not.toBe(graceBefore.refreshToken);
    expect(await activeAtSchool(graceBefore.refreshToken)).toBe(false);
    expect(await activeAtSchool(graceAfter.refreshToken)).toBe(true);
    expect((await graceFirst.call('who_am_i')).text).toContain(GRACE.name);
  }, 300_000);

  it("HOST-33 HOST-61 sends every client of a person who signed out on one of them through a new sign-in by itself, in the same MCP session, and none of another person's", async () => {
    const ada = await Promise.all(CLIENT_KINDS.flatMap((kind) => [connect(kind, ADA), connect(kind, ADA)]));
    const grace = await Promise.all(CLIENT_KINDS.map((kind) => connect(kind, GRACE)));
    for (const client of [...ada, ...grace]) expect((await client.call('who_am_i')).text).toContain(client.member.name);
    const signInsBefore = new Map([...ada, ...grace].map((client) => [client, client.signIns()]));
    const heldBefore = ada
      .map((client) => client.accessToken())
      .filter((token): token is string => token !== undefined);
    expect(heldBefore.length).toBeGreaterThan(0);

    const signOut = await ada[0]!.call('sign_out');
    expect(signOut.text).toMatch(/Signed out/);

    // Every token Ada's clients held now gets 401 with the Bearer challenge, which is what makes a client sign in again.
    for (const token of heldBefore) {
      const answer = await mcpStatus(token);
      expect(answer.status).toBe(401);
      expect(answer.challenge).toMatch(/^Bearer error="invalid_token".*resource_metadata="/);
    }
    for (const client of ada) {
      const who = await client.call('who_am_i');
      expect(who.text, client.kind).toContain(ADA.name);
      expect(client.signIns() - signInsBefore.get(client)!, `${client.kind} signed in again once`).toBe(1);
      expect(client.sessions(), `${client.kind} kept its MCP session`).toBe(1);
    }
    // The tokens issued after the new sign-in work.
    for (const token of ada
      .map((client) => client.accessToken())
      .filter((token): token is string => token !== undefined))
      expect((await mcpStatus(token)).status).toBe(200);
    for (const client of grace) {
      expect((await client.call('who_am_i')).text).toContain(GRACE.name);
      expect(client.signIns(), `${client.kind} of the other person`).toBe(signInsBefore.get(client));
    }
  }, 300_000);

  it.runIf(everyCase)(
    "HOST-33 ends every client of a person whose rotated-out refresh token came back on one client, and none of another person's",
    async () => {
      const [first] = CLIENT_KINDS;
      const others = await Promise.all(CLIENT_KINDS.map((kind) => connect(kind, ADA)));
      const grace = await connect(first!, GRACE);
      const signInsBefore = new Map([...others, grace].map((client) => [client, client.signIns()]));
      // One more client of Ada's whose tokens the test holds, so that it can present a rotated-out refresh token again.
      const base = publicUrl;
      const replaying = await registerMcpClient(base);
      const { code, verifier } = await signIn({ base }, replaying, ADA.sub);
      const refreshToken = String((await exchange(base, replaying, code, verifier)).body.refresh_token);
      expect(
        (
          await tokenRequest(base, {
            grant_type: 'refresh_token',
            refresh_token: refreshToken,
            client_id: replaying.clientId,
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await tokenRequest(base, {
            grant_type: 'refresh_token',
            refresh_token: refreshToken,
            client_id: replaying.clientId,
          })
        ).body.error,
      ).toBe('invalid_grant');

      for (const client of others) {
        expect((await client.call('who_am_i')).text).toContain(ADA.name);
        expect(client.signIns() - signInsBefore.get(client)!, client.kind).toBe(1);
      }
      expect((await grace.call('who_am_i')).text).toContain(GRACE.name);
      expect(grace.signIns()).toBe(signInsBefore.get(grace));
    },
    300_000,
  );
}
