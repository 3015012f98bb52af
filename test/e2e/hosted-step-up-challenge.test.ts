/**
 * `school-mcp --hosted` as a real process (the bundled bin, as deployed) in front of a sandbox
 * school that asks for more than its OpenAPI document declares: a tool call refused with 403
 * `insufficient_scope` steps up the person who made it, they approve in their browser, and the
 * same call returns the result; a school that keeps refusing is asked no more than the budget.
 * The MCP SDK's client signs in through its own OAuth provider, as a deployment's users would.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeConsent, SANDBOX_STAFF, startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { CookieBrowser, hiddenInput } from '../../tools/bench/cookie-browser.js';
import { freePort } from '../helpers/free-port.js';
import { MemoryOAuthProvider } from '../helpers/memory-oauth-provider.js';
import { spawnHostedProcess } from '../helpers/hosted-process.js';
import { collectLines } from '../helpers/stderr-lines.js';
import { allowAtSchoolMcp, CLIENT_REDIRECT, openConsent, returnFromSchool } from '../app/support/hosted-harness.js';

const COURSES = '/api/v1/courses';
const ACCOUNT = '/api/v1/account';

function textOf(result: unknown): string {
  return ((result as { content: { text?: string }[] }).content ?? []).map((item) => item.text ?? '').join('\n');
}

describe('school-mcp --hosted as a process: a school that understates a scope in its document', () => {
  let sandbox: RunningSandbox;
  let child: ChildProcess;
  let home: string;
  let publicUrl: string;

  beforeAll(async () => {
    sandbox = await startSandbox({
      faults: {
        scopeChallenges: {
          [`GET ${COURSES}`]: { scope: 'courses:read students:read' },
          [`GET ${ACCOUNT}`]: { scope: 'account:read analytics:read', evenWhenGranted: true },
        },
      },
    });
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    home = await mkdtemp(join(tmpdir(), 'school-mcp-hosted-challenge-'));
    child = spawnHostedProcess({
      sandbox,
      port,
      publicUrl,
      home,
      clientName: 'school-mcp (step-up e2e)',
      extraArgs: ['--toolsets', 'all'],
    });
    await collectLines(child.stderr).waitForLine(/serving hosted/, 30_000);
  }, 60_000);

  afterAll(async () => {
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await sandbox?.close();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  /** A 2025-11-25 client of `user` that takes URL elicitations, signed in through school-mcp's own consent and the school's. */
  async function connect(user: string): Promise<Client> {
    const provider = new MemoryOAuthProvider(CLIENT_REDIRECT, 'step-up e2e agent');
    const signing = new StreamableHTTPClientTransport(new URL(`${publicUrl}/mcp`), { authProvider: provider });
    await expect(new Client({ name: 'step-up-e2e', version: '1.0.0' }).connect(signing)).rejects.toThrow();
    const browser = new CookieBrowser();
    const { consentUrl, csrf } = await openConsent(browser, provider.authorizationUrl!);
    const { url } = await returnFromSchool(
      browser,
      await completeConsent(await allowAtSchoolMcp(browser, consentUrl, csrf), 'allow', { user }),
    );
    await signing.finishAuth(url.searchParams);
    const client = new Client(
      { name: 'step-up-e2e', version: '1.0.0' },
      { capabilities: { elicitation: { url: {} } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(`${publicUrl}/mcp`), { authProvider: provider }));
    return client;
  }

  /** The person approves the step-up in their browser; returns the page they land on. */
  async function approve(link: string, user: string): Promise<string> {
    const browser = new CookieBrowser();
    const csrf = hiddenInput(await (await browser.request(link)).text(), 'csrf_token')!;
    const toSchool = await browser.request(link, { form: { csrf_token: csrf, decision: 'allow' } });
    expect(toSchool.status).toBe(303);
    expect(new URL(toSchool.headers.get('location')!).searchParams.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining(['courses:read', 'students:read']),
    );
    const landed = await browser.request(await completeConsent(toSchool.headers.get('location')!, 'allow', { user }));
    expect(landed.status).toBe(200);
    return landed.text();
  }

  it('HOST-37 steps up the person the school refused, and the original call returns the result once they approve', async () => {
    const ada = SANDBOX_STAFF[0]!;
    const client = await connect(ada.sub);
    const pages: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      pages.push(await approve((request.params as { url: string }).url, ada.sub));
      return { action: 'accept' };
    });
    try {
      const before = sandbox.countRequests(COURSES, 'GET');
      const courses = await client.callTool({ name: 'list_courses', arguments: {} });
      expect(courses.isError, textOf(courses)).toBeFalsy();
      expect(JSON.stringify(courses.structuredContent ?? textOf(courses))).toMatch(/crs_/);
      expect(sandbox.countRequests(COURSES, 'GET') - before).toBe(2);
      expect(pages).toHaveLength(1);
      expect(pages[0]).toMatch(/finishes on its own/);

      // A school that keeps refusing: one approval, then the budget ends it.
      const refused = await client.callTool({ name: 'get_account', arguments: {} });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/keeps refusing get_account[\s\S]*will not ask again/);
      expect(pages).toHaveLength(2);
    } finally {
      await client.close();
    }
  });
});
