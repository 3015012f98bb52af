/**
 * The school's refusals end to end, over each transport on a 2025-11-25 connection without elicitation
 * (the link reaches the played user through stderr): a school that needs more scope than its
 * document declares, one that keeps refusing whatever is granted, a revoked grant whose refresh
 * is refused, and an HTML page where data was expected.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_PATHS, completeConsent, startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { linkIn, MCP_TRANSPORTS, startMcpServer, type McpTestServer } from '../helpers/mcp-server.js';

type Result = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  isError?: boolean;
};

const MEMBERS = '/api/v1/members';

describe.each(MCP_TRANSPORTS)('the school refusals over %s', (transport) => {
  let sandbox: RunningSandbox;
  let server: McpTestServer;
  const links: string[] = [];
  let watching = true;

  async function approveLinks(): Promise<void> {
    while (watching) {
      const line = await server.waitForLine(/\/oauth\/authorize\?/, 120_000).catch(() => undefined);
      if (!line || !watching) return;
      links.push(linkIn(line));
      const callback = await completeConsent(linkIn(line), 'allow');
      await (await fetch(callback)).text();
    }
  }

  async function call(name: string, args: Record<string, unknown> = {}): Promise<Result> {
    return (await server.client.callTool({ name, arguments: args })) as Result;
  }

  const textOf = (result: Result) => result.content.map((block) => block.text ?? '').join('\n');
  const scopesOf = (link: string) => (new URL(link).searchParams.get('scope') ?? '').split(' ').filter(Boolean);

  beforeAll(async () => {
    sandbox = await startSandbox({
      autoApprove: false,
      faults: {
        scopeChallenges: {
          // Needs more than the document declares for create_coupon (a read would be granted with the first consent already).
          'POST /api/v1/coupons': { scope: 'coupons:write posts:write' },
          // Refuses create_member whatever is granted.
          [`POST ${MEMBERS}`]: { scope: 'members:write', evenWhenGranted: true },
        },
        htmlPaths: ['/api/v1/forms'],
      },
    });
    server = await startMcpServer({
      transport,
      args: ['--school', sandbox.url, '--no-browser', '--toolsets', 'all', '--consent-wait', '20', '--link-wait', '20'],
    });
    void approveLinks();
  });

  afterAll(async () => {
    watching = false;
    await server?.close();
    await sandbox?.close();
  });

  describe('what the school answers, end to end', () => {
    it('ERR-01 ERR-03 a 403 insufficient_scope challenge is parsed, its scope asked for with what is granted, and the call retried', async () => {
      const result = await call('create_coupon', { code: 'CHALLENGED', discount_type: 'percent', percent_off: 5 });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(result.structuredContent?.['code']).toBe('CHALLENGED');
      // One consent for the declared coupons:write (with the reads of every toolset), one step-up for the challenged posts:write.
      expect(links).toHaveLength(2);
      expect(scopesOf(links[0]!)).toEqual(expect.arrayContaining(['coupons:write', 'analytics:read']));
      expect(scopesOf(links[1]!)).toEqual(
        expect.arrayContaining(['coupons:write', 'posts:write', 'analytics:read', 'openid', 'profile']),
      );
      expect(sandbox.countRequests('/api/v1/coupons', 'POST')).toBe(2);
    });

    it('ERR-03 a school that keeps answering insufficient_scope although the scope was granted: three step-ups, then it stops and stays denied', async () => {
      const consentsBefore = links.length;
      const first = await call('create_member', { email: 'looping@example.com', name: 'Loop' });
      expect(first.isError).toBe(true);
      expect(textOf(first)).toMatch(/keeps refusing create_member for lack of members:write/);
      expect(textOf(first)).toMatch(/will not ask again/);
      // One consent for members:write; the step-ups find it granted and ask nobody.
      expect(links.length - consentsBefore).toBe(1);
      // The first request and three retries.
      expect(sandbox.countRequests(MEMBERS, 'POST')).toBe(4);

      const again = await call('create_member', { email: 'looping@example.com', name: 'Loop' });
      expect(textOf(again)).toMatch(/will not ask again/);
      expect(sandbox.countRequests(MEMBERS, 'POST')).toBe(5);
      expect(links.length - consentsBefore).toBe(1);
    });

    it('ERR-02 a grant revoked at the school: the refresh is refused, consent is asked again, and the call goes through', async () => {
      const record = await storedTokens(server.configDir);
      const revoked = await fetch(new URL(AUTH_PATHS.revocation, sandbox.url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          token: record.refreshToken,
          token_type_hint: 'refresh_token',
          client_id: record.clientId,
        }),
      });
      expect(revoked.status).toBe(200);
      const consentsBefore = links.length;
      const refreshesBefore = sandbox.countRequests(AUTH_PATHS.token, 'POST');

      // analytics:read was granted with the first consent: only the revocation stands between the call and the data.
      const today = new Date().toISOString().slice(0, 10);
      const result = await call('get_revenue_summary', { from: today, to: today });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(links.length - consentsBefore).toBe(1);
      // One refused refresh, then the code exchange of the new consent.
      expect(sandbox.countRequests(AUTH_PATHS.token, 'POST') - refreshesBefore).toBe(2);
    });

    it('ERR-04 an HTML page where data was expected is named as such and not passed on as data', async () => {
      const result = await call('list_forms');
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/HTML page instead of data/);
      expect(textOf(result)).not.toContain('<title>');
      expect(result.structuredContent).toBeUndefined();
    });
  });

  /** The token store the server wrote: the test plays an administrator revoking the grant. */
  async function storedTokens(dir: string): Promise<{ refreshToken: string; clientId: string }> {
    for (const name of await readdir(dir)) {
      if (!name.endsWith('.json')) continue;
      const record = JSON.parse(await readFile(join(dir, name), 'utf8')) as {
        tokens?: { refreshToken?: string; clientId?: string };
      };
      if (record.tokens?.refreshToken && record.tokens.clientId)
        return { refreshToken: record.tokens.refreshToken, clientId: record.tokens.clientId };
    }
    throw new Error(`no token store in ${dir}`);
  }
});
