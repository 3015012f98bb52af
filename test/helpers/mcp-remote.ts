/**
 * mcp-remote (npm), the stdio bridge many desktop MCP hosts use for remote servers, as a child
 * process at its defaults (the server URL and nothing else), spoken to over stdio with the SDK's
 * client. It opens the browser with the `open` package, whose bundled xdg-open runs `$BROWSER`:
 * here a script that appends the URL to a file, which this helper watches and hands, one URL at a
 * time, to the person at the browser (`onBrowser`), whenever mcp-remote opens one: at its start
 * or in the middle of a call, when the server made it sign in again.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Browser } from 'playwright-core';
import { completeConsent, type StaffMember } from '@school-mcp/sandbox';
import { CookieBrowser } from '../../tools/bench/cookie-browser.js';
import { allowAtSchoolMcp, openConsent } from '../app/support/hosted-harness.js';
import { collectLines, type LineCollector } from './stderr-lines.js';

const MCP_REMOTE = join(dirname(createRequire(import.meta.url).resolve('mcp-remote/package.json')), 'dist/proxy.js');

/** Polls until `read` yields a value; the machine may be busy, so the limit is generous. */
export async function until<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Waits until something accepts connections on 127.0.0.1:`port`. mcp-remote opens the browser on
 * a sign-in in the middle of a call before it listens on its callback port; a person who came
 * back faster than that would reload the page.
 */
function listening(port: number): Promise<true> {
  return until(
    () =>
      new Promise<true | undefined>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(undefined));
      }),
    `a listener on 127.0.0.1:${port}`,
  );
}

export interface McpRemoteOptions {
  /** The MCP endpoint, `{public-url}/mcp`. */
  readonly mcpUrl: string;
  /** One installation: its token cache (`mcp-auth`) and the `$BROWSER` script live here. */
  readonly home: string;
  /** The person at the browser, given each URL mcp-remote opens, in order; done once mcp-remote has the answer. */
  readonly onBrowser: (url: URL) => Promise<void>;
  /** More to add to a failure's message (the server's last log lines). */
  readonly context?: () => string;
}

export interface McpRemote {
  readonly client: Client;
  readonly stderr: LineCollector;
  /** Every URL it opened in the browser, this run. */
  readonly opened: readonly URL[];
  /** Rejects when the person at the browser could not finish a sign-in it asked for. */
  readonly failed: Promise<never>;
  close(): Promise<void>;
}

export async function startMcpRemote(options: McpRemoteOptions): Promise<McpRemote> {
  const { home } = options;
  await mkdir(home, { recursive: true });
  const openedFile = join(home, 'opened');
  const before = await readFile(openedFile, 'utf8').catch(() => '');
  if (before === '') await writeFile(openedFile, '');
  await writeFile(join(home, 'browser'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${openedFile}'\n`, { mode: 0o755 });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MCP_REMOTE, options.mcpUrl],
    stderr: 'pipe',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      MCP_REMOTE_CONFIG_DIR: join(home, 'mcp-auth'),
      BROWSER: join(home, 'browser'),
    },
  });
  const stderr = collectLines(transport.stderr as Readable | null);
  const describe = (error: unknown) =>
    new Error(
      `${String(error)}\nmcp-remote stderr:\n${stderr.stderr.join('\n')}${options.context ? `\n${options.context()}` : ''}`,
    );

  // The person at the browser: each URL mcp-remote opens from now on, one after the other.
  const opened: URL[] = [];
  let seen = before.split('\n').filter((line) => line !== '').length;
  let closed = false;
  let fail!: (error: Error) => void;
  const failed = new Promise<never>((_resolve, reject) => (fail = reject));
  failed.catch(() => undefined);
  const watching = (async () => {
    while (!closed) {
      const lines = (await readFile(openedFile, 'utf8')).split('\n').filter((line) => line !== '');
      for (; seen < lines.length && !closed; seen += 1) {
        const url = new URL(lines[seen]!);
        opened.push(url);
        await options.onBrowser(url);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })().catch((error: unknown) => fail(describe(error)));

  const client = new Client({ name: 'mcp-remote-e2e', version: '1.0.0' });
  const close = async () => {
    closed = true;
    await client.close().catch(() => undefined);
    await watching;
  };
  try {
    // mcp-remote answers `initialize` once it is signed in, which needs the person first.
    await Promise.race([client.connect(transport, { timeout: 120_000 }), failed]);
  } catch (error) {
    await close();
    throw error instanceof Error && error.message.includes('mcp-remote stderr:') ? error : describe(error);
  }
  // Closed by whoever holds the client: the person stops watching this mcp-remote's browser.
  client.onclose = () => {
    closed = true;
  };
  return { client, stderr, opened, failed, close };
}

/** The redirect URI of an authorization URL mcp-remote opened: its loopback callback. */
function callbackOf(authorize: URL): URL {
  const redirect = authorize.searchParams.get('redirect_uri');
  if (redirect === null) throw new Error(`no redirect_uri in ${authorize.href}`);
  return new URL(redirect);
}

/**
 * The person at a cookie-keeping HTTP client: school-mcp's consent and the school's as `member`,
 * then the last redirect to mcp-remote's loopback callback, which must take the code.
 */
export async function approveWithCookies(authorize: URL, member: StaffMember): Promise<void> {
  const browser = new CookieBrowser();
  const { consentUrl, csrf } = await openConsent(browser, authorize);
  const callback = await completeConsent(await allowAtSchoolMcp(browser, consentUrl, csrf), 'allow', {
    user: member.sub,
  });
  const { url } = await browser.follow(callback, (next) => next.origin === authorize.origin);
  if (url.searchParams.get('code') === null) throw new Error(`no code for mcp-remote: ${url.href}`);
  await listening(Number(callbackOf(authorize).port));
  const landed = await browser.request(url);
  if (landed.status !== 200) throw new Error(`mcp-remote's callback answered ${landed.status}: ${await landed.text()}`);
}

/** The same person in Chromium: Allow on school-mcp's page, themselves and Allow on the school's, and mcp-remote's page last. */
export async function approveInChromium(browser: Browser, authorize: URL, member: StaffMember): Promise<void> {
  const callback = callbackOf(authorize);
  const atCallback = (url: URL) => url.origin === callback.origin && url.pathname === callback.pathname;
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.route(atCallback, async (route) => {
      await listening(Number(callback.port));
      await route.continue();
    });
    await page.goto(authorize.href);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.origin !== authorize.origin);
    await page.locator('select#user').selectOption(member.sub);
    const landed = page.waitForResponse((response) => atCallback(new URL(response.url())), { timeout: 60_000 });
    await page.getByRole('button', { name: 'Allow' }).click();
    const response = await landed;
    if (response.status() !== 200)
      throw new Error(`mcp-remote's callback answered ${response.status()}: ${await response.text()}`);
    if (new URL(response.url()).searchParams.get('code') === null)
      throw new Error(`no code for mcp-remote: ${response.url()}`);
  } finally {
    await context.close();
  }
}
