/**
 * Re-consent end to end: the SDK's client spawns the built `school-mcp` over stdio against the
 * sandbox school (with its real consent page), on both protocol eras, with and without URL-mode
 * elicitation. The test plays the user: it answers the elicitation, or picks the link from
 * stderr, and approves or denies on the consent page. A missing permission must become one
 * prompt, and the call that needed it must finish in the same call once it is granted.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeFileName } from '../../src/oauth/index.js';
import { AUTH_PATHS, completeConsent, startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import {
  linkIn,
  MCP_TRANSPORTS,
  sdkEraName,
  startMcpServer,
  type McpTestServer,
  type McpTransport,
} from '../helpers/mcp-server.js';

type Result = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  isError?: boolean;
};
type Decision = 'allow' | 'deny' | 'later' | 'decline';

interface Combination {
  readonly transport: McpTransport;
  readonly era: 'sessionful' | 'stateless';
  readonly elicitation: boolean;
}

const COMBINATIONS: readonly Combination[] = MCP_TRANSPORTS.flatMap((transport) => [
  { transport, era: 'sessionful' as const, elicitation: true },
  { transport, era: 'sessionful' as const, elicitation: false },
  { transport, era: 'stateless' as const, elicitation: true },
  { transport, era: 'stateless' as const, elicitation: false },
]);

/**
 * How long a call waits for the played user, who answers within milliseconds: far more than they
 * need, so that no scenario depends on the machine's speed. The scenario whose user answers
 * "later" runs on a second server process over the same token store, whose wait is short: it
 * waits for that wait to run out, and nothing else does. The wait bounds the whole call, the
 * client's answer to a URL elicitation included, so it leaves that answer ample time.
 */
const CONSENT_WAIT_SECONDS = 60;
const SHORT_WAIT_SECONDS = 1.5;

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ autoApprove: false });
});

afterAll(async () => {
  await sandbox?.close();
});

/** The user at the consent page: Allow or Deny, then the browser follows the redirect home. */
async function answerConsentPage(url: string, decision: 'allow' | 'deny'): Promise<void> {
  const callback = await completeConsent(url, decision);
  const page = await fetch(callback).catch((error: unknown) => {
    // Which listener, and why: a dead link and a reset connection need different fixes.
    throw new Error(
      `the sign-in callback at ${callback.origin} did not answer: ${String((error as { cause?: unknown }).cause ?? error)}`,
    );
  });
  await page.text();
}

/** The scopes of the grant in a server's token store, as another process would read it. */
async function storedScopes(configDir: string): Promise<string[]> {
  const record = await readFile(join(configDir, storeFileName(sandbox.issuer)), 'utf8').catch(() => '{}');
  return (JSON.parse(record) as { tokens?: { scopes?: string[] } }).tokens?.scopes ?? [];
}

function scopesOf(link: string): string[] {
  return (new URL(link).searchParams.get('scope') ?? '').split(' ').filter(Boolean).sort();
}

function textOf(result: Result): string {
  return result.content.map((block) => block.text ?? '').join('\n');
}

describe.each(COMBINATIONS)(
  're-consent over $transport on a $era connection, URL elicitation: $elicitation',
  ({ transport, era, elicitation }) => {
    let server: McpTestServer;
    /** A second process on the same token store whose calls stop waiting almost at once. */
    let impatientServer: McpTestServer | undefined;
    /** What the played user does with the next consent shown to them. */
    let decision: Decision = 'allow';
    /** Every consent link the user was shown, in order (elicitation or stderr). */
    const shown: string[] = [];
    const elicitations: { url: string; message: string; elicitationId?: string }[] = [];
    const completions: string[] = [];
    let watching = true;

    async function play(url: string): Promise<'accept' | 'decline'> {
      shown.push(url);
      if (decision === 'decline') return 'decline';
      if (decision === 'allow' || decision === 'deny') await answerConsentPage(url, decision);
      return 'accept';
    }

    /** Without elicitation the link reaches the user through the server's stderr line. */
    async function watchStderr(watched: McpTestServer): Promise<void> {
      while (watching) {
        const line = await watched.waitForLine(/\/oauth\/authorize\?/, 120_000).catch(() => undefined);
        if (!line || !watching) return;
        await play(linkIn(line)).catch(() => undefined);
      }
    }

    async function startPlayedServer(waitSeconds: number, configDir?: string): Promise<McpTestServer> {
      const started = await startMcpServer({
        transport,
        era,
        args: [
          '--school',
          sandbox.url,
          '--no-browser',
          '--toolsets',
          'all',
          '--consent-wait',
          String(waitSeconds),
          '--link-wait',
          String(waitSeconds),
        ],
        ...(configDir === undefined ? {} : { configDir }),
        ...(elicitation ? { capabilities: { elicitation: { url: {} } } } : {}),
      });
      if (elicitation) {
        started.client.setRequestHandler('elicitation/create', async (request) => {
          const params = request.params as { mode?: string; url: string; message: string; elicitationId?: string };
          expect(params.mode).toBe('url');
          elicitations.push({
            url: params.url,
            message: params.message,
            ...(params.elicitationId ? { elicitationId: params.elicitationId } : {}),
          });
          return { action: await play(params.url) };
        });
        started.client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
          completions.push((notification.params as { elicitationId: string }).elicitationId);
        });
      } else {
        void watchStderr(started);
      }
      return started;
    }

    async function call(
      name: string,
      args: Record<string, unknown> = {},
      onprogress?: (progress: { message?: string }) => void,
      on = server,
    ): Promise<Result> {
      return (await on.client.callTool(
        { name, arguments: args },
        onprogress ? { onprogress, resetTimeoutOnProgress: true } : {},
      )) as Result;
    }

    beforeAll(async () => {
      server = await startPlayedServer(CONSENT_WAIT_SECONDS);
    });

    afterAll(async () => {
      watching = false;
      await impatientServer?.close();
      await server?.close();
    });

    it('starts with read access only: the first read signs in for the reads of every listed toolset, and no write', async () => {
      decision = 'allow';
      const result = await call('list_coupons');
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(Array.isArray(result.structuredContent?.['items'])).toBe(true);
      expect(shown).toHaveLength(1);
      expect(scopesOf(shown[0]!)).toEqual(
        expect.arrayContaining(['coupons:read', 'courses:read', 'members:read', 'posts:read']),
      );
      expect(scopesOf(shown[0]!).filter((scope) => scope.endsWith(':write'))).toEqual([]);
      expect(server.client.getProtocolEra?.() ?? sdkEraName(era)).toBe(sdkEraName(era));
    });

    it('AZ-06 ERR-03 create_coupon asks for granted ∪ coupons:write and creates the coupon in the same call', async () => {
      decision = 'allow';
      const code = `RECONSENT-${transport}-${era}-${elicitation ? 'E' : 'L'}`.toUpperCase();
      const result = await call('create_coupon', { code, discount_type: 'percent', percent_off: 15 });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(result.structuredContent?.['code']).toBe(code);
      expect(shown).toHaveLength(2);
      expect(scopesOf(shown[1]!)).toEqual(
        expect.arrayContaining(['coupons:read', 'coupons:write', 'openid', 'profile']),
      );
      if (elicitation) {
        expect(elicitations.at(-1)!.message).toContain('coupons:write (Write access to coupons)');
        expect(elicitations.at(-1)!.url).toBe(shown[1]);
      }
      if (elicitation && era === 'sessionful') {
        const id = elicitations.at(-1)!.elicitationId;
        expect(id).toBeTruthy();
        await expect.poll(() => completions, { timeout: 90_000 }).toContain(id);
      }
      const stored = await call('get_coupon_by_code', { code });
      expect(stored.structuredContent?.['percent_off']).toBe(15);
    });

    it('a denial on the consent page answers what was denied and how to ask again; nothing is created', async () => {
      decision = 'deny';
      const before = shown.length;
      const result = await call('create_member', {
        email: `denied.${transport}-${era}.${elicitation}@example.com`,
        name: 'Denied Person',
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/did not approve members:write \(Write access to members\)/);
      expect(textOf(result)).toMatch(/call create_member again/);
      expect(shown).toHaveLength(before + 1);
      decision = 'allow';
      const listed = await call('list_members', { email: `denied.${transport}-${era}.${elicitation}@example.com` });
      expect(listed.structuredContent?.['total']).toBe(0);
    });

    // Only a client that shows the link itself can decline to open it; the other combinations have no such step.
    if (elicitation) {
      it('declining the elicitation ends the approval as denied', async () => {
        decision = 'decline';
        const result = await call('create_post', { title: 'Declined', body: 'Never posted.' });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/declined to open the approval link for posts:write/);
      });
    }

    it('after the wait runs out the result shows the link; the next call reuses the same pending flow', async () => {
      impatientServer = await startPlayedServer(SHORT_WAIT_SECONDS, server.configDir);
      decision = 'later';
      const before = shown.length;
      const registrations = sandbox.countRequests(AUTH_PATHS.registration);
      const pending = await call(
        'create_course',
        { title: `Pending ${transport}-${era} ${elicitation}` },
        undefined,
        impatientServer,
      );
      expect(pending.isError).toBe(true);
      expect(shown).toHaveLength(before + 1);
      const link = shown.at(-1)!;
      expect(textOf(pending)).toContain(link);
      expect(textOf(pending)).toMatch(/courses:write \(Write access to courses\)/);
      expect(textOf(pending)).toMatch(/call create_course again with the same arguments and it continues/);

      await answerConsentPage(link, 'allow');
      decision = 'allow';
      // The code is exchanged after the browser got its page: the next call comes once the grant is stored.
      await expect.poll(() => storedScopes(server.configDir), { timeout: 90_000 }).toContain('courses:write');
      const done = await call(
        'create_course',
        { title: `Pending ${transport}-${era} ${elicitation}` },
        undefined,
        impatientServer,
      );
      expect(done.isError, textOf(done)).toBeFalsy();
      expect(done.structuredContent?.['title']).toBe(`Pending ${transport}-${era} ${elicitation}`);
      expect(shown).toHaveLength(before + 1);
      expect(sandbox.countRequests(AUTH_PATHS.registration)).toBe(registrations);
    });

    it('two calls that need the same new scope at the same time share one consent', async () => {
      decision = 'allow';
      const before = shown.length;
      // What the calls wait for goes out as progress while they wait: checked here, on a wait that
      // ends only with the approval, since a wait that runs out may end before the first notice.
      const progress: string[] = [];
      const onprogress = (update: { message?: string }) => progress.push(update.message ?? '');
      const [first, second] = await Promise.all([
        call(
          'create_lecturer',
          { name: 'Ada Parallel', email: `ada.${transport}-${era}.${elicitation}@example.com` },
          onprogress,
        ),
        call(
          'create_lecturer',
          { name: 'Bob Parallel', email: `bob.${transport}-${era}.${elicitation}@example.com` },
          onprogress,
        ),
      ]);
      expect(progress.some((message) => message.includes('lecturers:write'))).toBe(true);
      expect(first.isError, textOf(first)).toBeFalsy();
      expect(second.isError, textOf(second)).toBeFalsy();
      expect(shown).toHaveLength(before + 1);
      expect(scopesOf(shown.at(-1)!)).toContain('lecturers:write');
    });
  },
);
