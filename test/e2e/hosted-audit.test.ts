/**
 * `school-mcp --hosted --demo --audit-log FILE` as a real process: people sign in through the MCP
 * SDK's client, call tools, step up, sign out, a client reuses a rotated refresh token, and
 * strangers are refused. The file then tells who did what, in order, and holds none of the
 * tokens, codes or argument values the test saw on the wire.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_ORDER } from '../../src/audit/index.js';
import { completeConsent, SANDBOX_STAFF } from '@school-mcp/sandbox';
import { CookieBrowser, hiddenInput } from '../../tools/bench/cookie-browser.js';
import { MemoryOAuthProvider } from '../helpers/memory-oauth-provider.js';
import { MAIN_JS } from '../helpers/mcp-stdio.js';
import { collectLines, type LineCollector } from '../helpers/stderr-lines.js';
import {
  allowAtSchoolMcp,
  authorizeUrl,
  CLIENT_REDIRECT,
  openConsent,
  pkce,
  registerMcpClient,
  returnFromSchool,
  tokenRequest,
} from '../app/support/hosted-harness.js';

type AuditRecord = Record<string, unknown> & { event: string; outcome: string };

let dir: string;
let auditPath: string;
let child: ChildProcess;
let lines: LineCollector;
let mcpUrl: URL;
let base: string;
/** Every secret the test saw: none may be in the audit log. */
const secrets: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'school-mcp-audit-e2e-'));
  auditPath = join(dir, 'audit.jsonl');
  child = spawn(process.execPath, [MAIN_JS, '--hosted', '--demo', '--audit-log', auditPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SCHOOL_MCP_STORE_KEY: '' },
  });
  lines = collectLines(child.stderr);
  mcpUrl = new URL(/MCP endpoint: +(\S+)/.exec(await lines.waitForLine(/MCP endpoint:/))![1]!);
  base = mcpUrl.origin;
  await lines.waitForLine(/sandbox school:/);
});

afterAll(async () => {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  await rm(dir, { recursive: true, force: true });
});

async function records(path = auditPath): Promise<AuditRecord[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditRecord);
}

/** The log is written behind a queue: wait until it holds a record like `pattern`. */
async function waitForRecord(pattern: Partial<AuditRecord>, path = auditPath): Promise<AuditRecord[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = await records(path);
    if (found.some((record) => Object.entries(pattern).every(([key, value]) => record[key] === value))) return found;
    if (Date.now() > deadline)
      throw new Error(
        `no audit record like ${JSON.stringify(pattern)} in:\n${found.map((record) => JSON.stringify(record)).join('\n')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function textOf(result: unknown): string {
  return ((result as { content: { text?: string }[] }).content ?? []).map((item) => item.text ?? '').join('\n');
}

/** The SDK client's OAuth flow, the browser played by the test; keeps the code and tokens it saw. */
async function connectAs(user: string): Promise<{ client: Client; provider: MemoryOAuthProvider; clientId: string }> {
  const provider = new MemoryOAuthProvider(CLIENT_REDIRECT, `audit agent for ${user}`);
  const first = new Client({ name: 'hosted-audit', version: '1.0.0' }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await expect(first.connect(transport)).rejects.toThrow();
  const browser = new CookieBrowser();
  const { consentUrl, csrf } = await openConsent(browser, provider.authorizationUrl!);
  const callback = await completeConsent(await allowAtSchoolMcp(browser, consentUrl, csrf), 'allow', { user });
  secrets.push(callback.searchParams.get('code')!, callback.searchParams.get('state')!);
  const { url } = await returnFromSchool(browser, callback);
  secrets.push(url.searchParams.get('code')!);
  await transport.finishAuth(url.searchParams);
  const client = new Client({ name: 'hosted-audit', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  const tokens = provider.tokens() as { access_token: string; refresh_token: string };
  secrets.push(tokens.access_token, tokens.refresh_token, provider.codeVerifier());
  return { client, provider, clientId: String((provider.clientInformation() as { client_id: string }).client_id) };
}

describe('the hosted audit log', () => {
  it('LOG-04 HOST-55 tells, in order, who registered, consented, signed in, called which tool, stepped up and signed out, with no token, code or argument in it', async () => {
    const ada = SANDBOX_STAFF[0]!;
    const { client, provider, clientId } = await connectAs(ada.sub);
    const listed = await client.callTool({ name: 'list_courses', arguments: {} });
    expect((listed as { isError?: boolean }).isError, textOf(listed)).toBeFalsy();
    // What the person answers at the school to the next step-up.
    let atSchool: 'allow' | 'deny' = 'allow';
    client.setRequestHandler('elicitation/create', async (request) => {
      const { url } = request.params as { url: string };
      const browser = new CookieBrowser();
      const csrf = hiddenInput(await (await browser.request(url)).text(), 'csrf_token')!;
      secrets.push(csrf);
      const toSchool = await browser.request(url, { form: { csrf_token: csrf, decision: 'allow' } });
      const answer = await completeConsent(toSchool.headers.get('location')!, atSchool, { user: ada.sub });
      if (atSchool === 'deny') {
        await browser.request(answer);
        return { action: 'decline' };
      }
      secrets.push(answer.searchParams.get('code')!);
      expect(await (await browser.request(answer)).text()).toMatch(/Granted/);
      return { action: 'accept' };
    });
    const argumentValues = { email: 'audit.canary.arg@example.com', name: 'Audit Canary Argument' };
    const created = await client.callTool({ name: 'create_member', arguments: argumentValues });
    expect((created as { isError?: boolean }).isError, textOf(created)).toBeFalsy();
    atSchool = 'deny';
    const coupon = await client.callTool({
      name: 'create_coupon',
      arguments: { code: 'AUDITCANARY10', discount_type: 'percent' },
    });
    expect((coupon as { isError?: boolean }).isError, textOf(coupon)).toBe(true);
    const signedOut = await client.callTool({ name: 'sign_out', arguments: {} });
    expect(textOf(signedOut)).toMatch(/Signed out/);
    const stale = provider.accessToken!;
    expect(
      (
        await fetch(mcpUrl, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${stale}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: '{}',
        })
      ).status,
    ).toBe(401);
    await client.close().catch(() => undefined);

    const all = await waitForRecord({ event: 'access', outcome: 'refused' });
    const hers = all.filter((record) => record['sub'] === ada.sub || record['client_id'] === clientId);
    expect(
      hers.map(
        (record) =>
          `${record.event} ${record.outcome}${typeof record['tool'] === 'string' ? ` ${record['tool']}` : ''}`,
      ),
    ).toEqual([
      'registration ok',
      'consent allowed',
      'sign_in ok',
      'tool_call ok list_courses',
      'step_up asked',
      'step_up granted',
      'tool_call ok create_member',
      'step_up asked',
      'step_up refused',
      'tool_call error create_coupon',
      'sign_out ok',
    ]);
    expect(hers.find((record) => record.event === 'registration')).toMatchObject({
      client_name: `audit agent for ${ada.sub}`,
    });
    expect(hers.find((record) => record.event === 'sign_in')).toMatchObject({ sub: ada.sub, client_id: clientId });
    expect(hers.find((record) => record['tool'] === 'create_member')).toMatchObject({
      sub: ada.sub,
      client_id: clientId,
      status_class: '2xx',
    });
    expect(hers.find((record) => record.event === 'step_up')).toMatchObject({
      client_id: clientId,
      scopes: ['members:write'],
    });
    expect(hers.find((record) => record['tool'] === 'create_coupon')).toMatchObject({
      error: 'OAUTH_SCOPE_NOT_GRANTED',
    });
    expect(hers.find((record) => record.event === 'sign_out')).toMatchObject({
      sub: ada.sub,
      client_id: clientId,
      school_revoked: true,
    });
    for (const record of all) expect(record['time']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const text = await readFile(auditPath, 'utf8');
    for (const secret of [...secrets, stale, ...Object.values(argumentValues), 'AUDITCANARY10']) {
      expect(secret.length).toBeGreaterThan(8);
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/Bearer/i);
    for (const record of all) for (const key of Object.keys(record)) expect(FIELD_ORDER).toContain(key);
    expect((await stat(auditPath)).mode & 0o777).toBe(0o600);
  });

  it("HOST-56 records a reused rotated refresh token as the end of that person's grant, with person and client", async () => {
    const grace = SANDBOX_STAFF[1]!;
    const { client, provider, clientId } = await connectAs(grace.sub);
    await client.close();
    const first = (provider.tokens() as { refresh_token: string }).refresh_token;
    // The resource the SDK client asked for (the metadata of /mcp names /mcp, RFC 9728 §3.3): a
    // refresh names the resource of its authorization request (RFC 8707 §2.2).
    const fields = { grant_type: 'refresh_token', refresh_token: first, client_id: clientId, resource: String(mcpUrl) };
    const rotated = await tokenRequest(base, fields);
    expect(rotated.status).toBe(200);
    secrets.push(String(rotated.body['access_token']), String(rotated.body['refresh_token']));
    expect((await tokenRequest(base, fields)).status).toBe(400);
    const all = await waitForRecord({ event: 'grant_revoked', sub: grace.sub });
    expect(all.find((record) => record.event === 'grant_revoked')).toMatchObject({
      outcome: 'ok',
      sub: grace.sub,
      client_id: clientId,
      reason: 'refresh_token_reuse',
    });
    const text = await readFile(auditPath, 'utf8');
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('HOST-57 records refusals: an invalid token at /mcp, a refused registration, a forged consent form; and a person who denies, at school-mcp or at the school', async () => {
    await fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-token-of-ours-0123456789', 'content-type': 'application/json' },
      body: '{}',
    });
    const refused = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Evil', redirect_uris: ['javascript:alert(1)'] }),
    });
    expect(refused.status).toBe(400);
    const mcpClient = await registerMcpClient(base, { client_name: 'Forger' });
    const browser = new CookieBrowser();
    const { consentUrl } = await openConsent(browser, authorizeUrl(base, mcpClient, pkce().challenge));
    const forged = await browser.request(consentUrl, { form: { csrf_token: 'forged', decision: 'allow' } });
    expect(forged.status).toBe(403);
    const denier = await registerMcpClient(base, { client_name: 'Denied' });
    const other = new CookieBrowser();
    const { consentUrl: denyUrl, csrf } = await openConsent(other, authorizeUrl(base, denier, pkce().challenge));
    secrets.push(csrf);
    expect((await other.request(denyUrl, { form: { csrf_token: csrf, decision: 'deny' } })).status).toBe(303);
    await waitForRecord({ event: 'consent', outcome: 'denied' });
    const atSchool = await registerMcpClient(base, { client_name: 'Denied at school' });
    const third = new CookieBrowser();
    const { consentUrl: thirdUrl, csrf: thirdCsrf } = await openConsent(
      third,
      authorizeUrl(base, atSchool, pkce().challenge),
    );
    await returnFromSchool(
      third,
      await completeConsent(await allowAtSchoolMcp(third, thirdUrl, thirdCsrf), 'deny', {
        user: SANDBOX_STAFF[2]!.sub,
      }),
    );
    const all = await waitForRecord({ event: 'sign_in', outcome: 'denied' });
    expect(all).toContainEqual(
      expect.objectContaining({ event: 'access', outcome: 'refused', error: 'invalid_token' }),
    );
    expect(all).toContainEqual(
      expect.objectContaining({ event: 'registration', outcome: 'refused', error: 'invalid_redirect_uri' }),
    );
    expect(all).toContainEqual(
      expect.objectContaining({
        event: 'consent',
        outcome: 'refused',
        client_id: mcpClient.clientId,
        reason: 'the consent form was not the one this server showed',
      }),
    );
    expect(all).toContainEqual(
      expect.objectContaining({ event: 'consent', outcome: 'denied', client_id: denier.clientId }),
    );
    expect(all).toContainEqual(
      expect.objectContaining({
        event: 'sign_in',
        outcome: 'denied',
        client_id: atSchool.clientId,
        error: 'access_denied',
      }),
    );
    const text = await readFile(auditPath, 'utf8');
    expect(text).not.toContain('not-a-token-of-ours');
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('LOG-05 moves on to a new file at the same path on SIGHUP, as logrotate expects', async () => {
    await rename(auditPath, `${auditPath}.1`);
    child.kill('SIGHUP');
    // Lines written before the reopen still go to the moved file: wait for one to land in the new one.
    const deadline = Date.now() + 20_000;
    while ((await records()).length === 0) {
      if (Date.now() > deadline) throw new Error('no line reached the reopened file');
      await registerMcpClient(base, { client_name: 'After rotation' });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await records()).every((record) => record.event === 'registration')).toBe(true);
    expect((await stat(auditPath)).mode & 0o777).toBe(0o600);
    expect(child.exitCode).toBeNull();
  });
});
