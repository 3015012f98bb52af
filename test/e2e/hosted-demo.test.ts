/**
 * `school-mcp --hosted --demo` as a real process, reached by the MCP SDK's own client with its
 * OAuth support: registration, consent at school-mcp, consent at the sandbox school as a chosen
 * staff member, then tools over Streamable HTTP, for three people at once.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeConsent, SANDBOX_STAFF } from '@school-mcp/sandbox';
import { CookieBrowser, hiddenInput } from '../../tools/bench/cookie-browser.js';
import { MemoryOAuthProvider } from '../helpers/memory-oauth-provider.js';
import { MAIN_JS } from '../helpers/mcp-stdio.js';
import { collectLines, type LineCollector } from '../helpers/stderr-lines.js';
import { allowAtSchoolMcp, CLIENT_REDIRECT, openConsent, returnFromSchool } from '../app/support/hosted-harness.js';

let child: ChildProcess;
let lines: LineCollector;
let mcpUrl: URL;

beforeAll(async () => {
  child = spawn(process.execPath, [MAIN_JS, '--hosted', '--demo'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SCHOOL_MCP_STORE_KEY: '' },
  });
  lines = collectLines(child.stderr);
  mcpUrl = new URL(/MCP endpoint: +(\S+)/.exec(await lines.waitForLine(/MCP endpoint:/))![1]!);
  await lines.waitForLine(/sandbox school:/);
});

afterAll(async () => {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
});

function textOf(result: unknown): string {
  return ((result as { content: { text?: string }[] }).content ?? []).map((item) => item.text ?? '').join('\n');
}

/** The SDK client's whole OAuth flow, with the user's browser played by the test; returns a connected client. */
async function connectAs(
  user: string,
  era: 'sessionful' | 'stateless' = 'sessionful',
  capabilities: Record<string, unknown> = {},
  sent: string[] = [],
): Promise<{ client: Client; provider: MemoryOAuthProvider }> {
  const provider = new MemoryOAuthProvider(CLIENT_REDIRECT, `e2e agent for ${user}`);
  const first = new Client({ name: 'hosted-e2e', version: '1.0.0' }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await expect(first.connect(transport)).rejects.toThrow();
  expect(provider.authorizationUrl?.origin).toBe(mcpUrl.origin);
  const browser = new CookieBrowser();
  const { consentUrl, csrf } = await openConsent(browser, provider.authorizationUrl!);
  const callback = await completeConsent(await allowAtSchoolMcp(browser, consentUrl, csrf), 'allow', { user });
  const { url } = await returnFromSchool(browser, callback);
  await transport.finishAuth(url.searchParams);
  const client = new Client(
    { name: 'hosted-e2e', version: '1.0.0' },
    { capabilities, ...(era === 'stateless' ? { versionNegotiation: { mode: 'auto' as const } } : {}) },
  );
  // Every request body the client sends, so that a test can see how a call was carried.
  const recording = (url: string | URL, init?: RequestInit): Promise<Response> => {
    if (typeof init?.body === 'string') sent.push(init.body);
    return fetch(url, init);
  };
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider, fetch: recording }));
  return { client, provider };
}

describe('school-mcp --hosted --demo with the MCP SDK client', () => {
  it('HOST-14 serves three staff members at once, each through their own OAuth sign-in, each seeing only themselves', async () => {
    const people = await Promise.all(
      SANDBOX_STAFF.slice(0, 3).map(async (member) => ({ member, ...(await connectAs(member.sub)) })),
    );
    for (const { member, client } of people) {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('who_am_i');
      const text = textOf(await client.callTool({ name: 'who_am_i', arguments: {} }));
      expect(text).toContain(member.name);
      for (const other of SANDBOX_STAFF.filter((staff) => staff.sub !== member.sub))
        expect(text).not.toContain(other.name);
    }
    // Canary: no person's school-mcp token ever shows up in another's results or in the log.
    const tokens = people.map(({ provider }) => provider.accessToken!);
    for (const { client } of people) {
      const text = textOf(await client.callTool({ name: 'who_am_i', arguments: {} }));
      for (const token of tokens) expect(text).not.toContain(token);
    }
    for (const token of tokens) expect(lines.stderr.join('\n')).not.toContain(token);
    await Promise.allSettled(people.map(({ client }) => client.close()));
  });

  it('HOST-14 serves a client of the 2026-07-28 protocol revision the same way', async () => {
    const alan = SANDBOX_STAFF[2]!;
    const { client } = await connectAs(alan.sub, 'stateless');
    expect(textOf(await client.callTool({ name: 'who_am_i', arguments: {} }))).toContain(alan.name);
    await client.close();
  });

  it('HOST-15 steps a 2026-07-28 client up through an input-required URL elicitation and finishes the call once granted', async () => {
    const ada = SANDBOX_STAFF[0]!;
    const sent: string[] = [];
    const { client } = await connectAs(ada.sub, 'stateless', { elicitation: { url: {} } }, sent);
    const prompted: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      const { url } = request.params as { url: string };
      prompted.push(url);
      // The person opens the link, continues to the school and approves there as herself.
      const browser = new CookieBrowser();
      const csrf = hiddenInput(await (await browser.request(url)).text(), 'csrf_token')!;
      const toSchool = await browser.request(url, { form: { csrf_token: csrf, decision: 'allow' } });
      const done = await browser.request(
        await completeConsent(toSchool.headers.get('location')!, 'allow', { user: ada.sub }),
      );
      expect(await done.text()).toMatch(/Granted/);
      return { action: 'accept' };
    });
    const created = await client.callTool({
      name: 'create_member',
      arguments: { email: 'demo.stepup@example.com', name: 'Demo Step-up' },
    });
    expect((created as { isError?: boolean }).isError, textOf(created)).toBeFalsy();
    expect(textOf(created)).toContain('demo.stepup@example.com');
    expect(prompted).toHaveLength(1);
    expect(prompted[0]).toMatch(new RegExp(`^${mcpUrl.origin}/step-up/`));
    // Carried as an input-required result: the client's retry sent back the answer and the sealed state.
    const retries = sent
      .map((body) => JSON.parse(body) as { method?: string; params?: Record<string, unknown> })
      .filter((message) => message.method === 'tools/call' && 'requestState' in (message.params ?? {}));
    expect(retries).toHaveLength(1);
    expect(retries[0]!.params!['inputResponses']).toMatchObject({ consent: { action: 'accept' } });
    await client.close();
  });
});
