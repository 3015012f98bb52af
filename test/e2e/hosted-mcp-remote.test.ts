/**
 * mcp-remote, the stdio bridge many desktop MCP hosts use for remote servers, at its defaults (the
 * URL and nothing else) against `school-mcp --hosted` as real processes, with a public URL without
 * and with a path. mcp-remote opens the browser with the `open` package, whose bundled xdg-open
 * runs `$BROWSER`: here a script that hands the URL to the test, which walks both consents as the
 * person would and follows the last redirect to mcp-remote's loopback callback. The test speaks
 * MCP to mcp-remote over stdio with the SDK's client. The TS and Python SDK clients sign in to the
 * same servers, so the metadata suits all three. A sign-out while mcp-remote runs is in
 * `hosted-clients.test.ts`; here, a start after one.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  completeConsent,
  SANDBOX_STAFF,
  startSandbox,
  type RunningSandbox,
  type StaffMember,
} from '@school-mcp/sandbox';
import { CookieBrowser } from '../../tools/bench/cookie-browser.js';
import { freePort } from '../helpers/free-port.js';
import { approveWithCookies, startMcpRemote, until } from '../helpers/mcp-remote.js';
import { spawnHostedProcess } from '../helpers/hosted-process.js';
import { MemoryOAuthProvider } from '../helpers/memory-oauth-provider.js';
import { itWithPython, runPythonClient } from '../helpers/python-mcp-client.js';
import { collectLines, type LineCollector } from '../helpers/stderr-lines.js';
import { allowAtSchoolMcp, CLIENT_REDIRECT, openConsent, returnFromSchool } from '../app/support/hosted-harness.js';

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function textOf(result: unknown): string {
  return ((result as { content: { text?: string }[] }).content ?? []).map((item) => item.text ?? '').join('\n');
}

describe.each([
  ['without a path', ''],
  ['with a path', '/mcp-gw'],
])('mcp-remote at its defaults signs in to school-mcp --hosted, public URL %s', (_label, publicPath) => {
  let sandbox: RunningSandbox;
  let server: ChildProcess;
  let serverLines: LineCollector;
  let home: string;
  let publicUrl: string;

  beforeAll(async () => {
    sandbox = await startSandbox();
    home = await mkdtemp(join(tmpdir(), 'school-mcp-mcp-remote-'));
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}${publicPath}`;
    server = spawnHostedProcess({
      sandbox,
      port,
      publicUrl,
      home,
      clientName: 'school-mcp (hosted)',
      extraArgs: ['--log-level', 'debug'],
    });
    serverLines = collectLines(server.stderr);
    await serverLines.waitForLine(/serving hosted/, 30_000);
  }, 60_000);

  afterAll(async () => {
    if (server !== undefined) {
      const done = exited(server);
      server.kill('SIGTERM');
      await done;
    }
    await sandbox?.close();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  /** mcp-remote as a child process, its token cache in `dir/mcp-auth`, signed in as `member` by the person at the browser. */
  async function connect(
    member: StaffMember,
    dir = home,
    onBrowser = (url: URL) => approveWithCookies(url, member),
  ): Promise<{ client: Client; opened: readonly URL[]; stderr: readonly string[] }> {
    const remote = await startMcpRemote({
      mcpUrl: `${publicUrl}/mcp`,
      home: dir,
      onBrowser,
      context: () => `school-mcp stderr (last lines):\n${serverLines.stderr.slice(-30).join('\n')}`,
    });
    return { client: remote.client, opened: remote.opened, stderr: remote.stderr.stderr };
  }

  it('HOST-27 HOST-28 HOST-29 registers, passes both consents, lists the tools and calls who_am_i; a second run reuses its registration from another callback port', async () => {
    const [ada, grace] = [SANDBOX_STAFF[0]!, SANDBOX_STAFF[2]!];
    const run1 = await connect(ada);
    expect(run1.opened).toHaveLength(1);
    const first = run1.opened[0];
    expect(first!.pathname).toBe(`${publicPath}/oauth/authorize`);
    const firstRedirect = new URL(first!.searchParams.get('redirect_uri')!);
    const tools = (await run1.client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain('who_am_i');
    expect(textOf(await run1.client.callTool({ name: 'who_am_i', arguments: {} }))).toContain(ada.name);
    await run1.client.close();
    // Its tokens are gone (the cache cleared, or expired without a refresh token) but its
    // registration is kept: the next run signs in again with it. (With tokens left that the server
    // refuses, mcp-remote 0.15.1 builds the authorization URL before it finds its port taken.)
    const cache = join(home, 'mcp-auth', 'mcp-remote-v1');
    for (const file of await readdir(cache)) if (file.endsWith('_tokens.json')) await rm(join(cache, file));

    // The port it listened on is now someone else's: mcp-remote takes the next one.
    const holder: Server = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve, reject) =>
      holder.once('error', reject).listen(Number(firstRedirect.port), '127.0.0.1', resolve),
    );
    try {
      const run2 = await connect(grace);
      expect(run2.opened).toHaveLength(1);
      const second = run2.opened[0];
      expect(second!.searchParams.get('client_id')).toBe(first!.searchParams.get('client_id'));
      const secondRedirect = new URL(second!.searchParams.get('redirect_uri')!);
      expect(secondRedirect.port).not.toBe(firstRedirect.port);
      expect(textOf(await run2.client.callTool({ name: 'who_am_i', arguments: {} }))).toContain(grace.name);
      await run2.client.close();
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 240_000);

  it('HOST-33 restarted after the person signed out, mcp-remote signs in again on start; with its callback port taken by then, only a second restart gets it there', async () => {
    const ada = SANDBOX_STAFF[0]!;
    const dir = join(home, 'restarts');
    const signOut = async (client: Client) =>
      expect(textOf(await client.callTool({ name: 'sign_out', arguments: {} }))).toMatch(/Signed out/);
    const run1 = await connect(ada, dir);
    await signOut(run1.client);
    await run1.client.close();

    // Its cached tokens look usable but the server refuses them: it signs in again in the browser on start.
    const run2 = await connect(ada, dir);
    expect(run2.opened).toHaveLength(1);
    expect(textOf(await run2.client.callTool({ name: 'who_am_i', arguments: {} }))).toContain(ada.name);
    const callbackPort = Number(new URL(run2.opened[0]!.searchParams.get('redirect_uri')!).port);
    await signOut(run2.client);
    await run2.client.close();

    // mcp-remote 0.15.1 with refused cached tokens builds the authorization URL with its default
    // callback port (derived from the server URL, the one it listened on before), and only then
    // finds that port taken and listens on the next one: the browser lands on whatever holds the
    // port, and this start never signs in.
    const holder: Server = createServer((_req, res) => res.writeHead(404).end('not mcp-remote'));
    await new Promise<void>((resolve, reject) =>
      holder.once('error', reject).listen(callbackPort, '127.0.0.1', resolve),
    );
    try {
      const stuck = connect(ada, dir);
      await expect(stuck).rejects.toThrow(/mcp-remote's callback answered 404/);
      // Having refused its tokens, it forgot them: the next start listens first, then opens the browser.
      const run4 = await connect(ada, dir);
      const redirect = new URL(run4.opened[0]!.searchParams.get('redirect_uri')!);
      expect(Number(redirect.port)).not.toBe(callbackPort);
      expect(textOf(await run4.client.callTool({ name: 'who_am_i', arguments: {} }))).toContain(ada.name);
      await run4.client.close();
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 240_000);

  // What mcp-remote does is the same whatever the server's path: once, without one.
  it.runIf(publicPath === '')(
    'HOST-33 signed out while it runs, with its callback port taken meanwhile, mcp-remote sends the browser to that port and the call never ends; a restart signs in',
    async () => {
      const ada = SANDBOX_STAFF[0]!;
      const dir = join(home, 'port-taken');
      /** How each browser page ended for the person, in order. */
      const pages: string[] = [];
      const run = await connect(ada, dir, async (url) => {
        pages.push(
          await approveWithCookies(url, ada).then(
            () => 'signed in',
            (error: unknown) => String(error),
          ),
        );
      });
      expect(pages).toEqual(['signed in']);
      const callbackPort = Number(new URL(run.opened[0]!.searchParams.get('redirect_uri')!).port);
      const holder: Server = createServer((_req, res) => res.writeHead(404).end('not mcp-remote'));
      await new Promise<void>((resolve, reject) =>
        holder.once('error', reject).listen(callbackPort, '127.0.0.1', resolve),
      );
      try {
        expect(textOf(await run.client.callTool({ name: 'sign_out', arguments: {} }))).toMatch(/Signed out/);
        // mcp-remote 0.15.1 opens the page for its old port, then listens on the next one: the
        // person lands on the other program's page, and the call waits for a code that never comes
        // (here until the host gives up on it).
        const call = run.client.callTool({ name: 'who_am_i', arguments: {} }, { timeout: 5_000 });
        call.catch(() => undefined);
        await until(async () => (pages.length >= 2 ? true : undefined), 'the second browser page');
        expect(pages[1]).toMatch(/callback answered 404: not mcp-remote/);
        await expect(call).rejects.toThrow(/timed out/i);
        await run.client.close();

        // The refused refresh made it forget its tokens: the next start listens first, then opens the page.
        const restarted = await connect(ada, dir);
        expect(Number(new URL(restarted.opened[0]!.searchParams.get('redirect_uri')!).port)).not.toBe(callbackPort);
        expect(textOf(await restarted.client.callTool({ name: 'who_am_i', arguments: {} }))).toContain(ada.name);
        await restarted.client.close();
      } finally {
        await run.client.close();
        await new Promise((resolve) => holder.close(resolve));
      }
    },
    240_000,
  );

  it('HOST-27 HOST-28 lets the TS SDK client sign in and call who_am_i', async () => {
    const member = SANDBOX_STAFF[1]!;
    const provider = new MemoryOAuthProvider(CLIENT_REDIRECT, 'TS SDK agent');
    const transport = new StreamableHTTPClientTransport(new URL(`${publicUrl}/mcp`), { authProvider: provider });
    await expect(new Client({ name: 'ts-sdk-e2e', version: '1.0.0' }).connect(transport)).rejects.toThrow();
    const browser = new CookieBrowser();
    const { consentUrl, csrf } = await openConsent(browser, provider.authorizationUrl!);
    const callback = await completeConsent(await allowAtSchoolMcp(browser, consentUrl, csrf), 'allow', {
      user: member.sub,
    });
    await transport.finishAuth((await returnFromSchool(browser, callback)).url.searchParams);
    const client = new Client({ name: 'ts-sdk-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${publicUrl}/mcp`), { authProvider: provider }));
    try {
      expect(textOf(await client.callTool({ name: 'who_am_i', arguments: {} }))).toContain(member.name);
    } finally {
      await client.close();
    }
  }, 60_000);

  itWithPython('HOST-27 HOST-28 lets the Python SDK client sign in and call who_am_i', async () => {
    const member = SANDBOX_STAFF[0]!;
    const result = await runPythonClient(`${publicUrl}/mcp`, member);
    expect(result.who_am_i).toContain(member.name);
  });
});
