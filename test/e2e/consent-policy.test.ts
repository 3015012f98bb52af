/**
 * The consent policy end to end: the built `school-mcp` over stdio against the sandbox school, with
 * a client that shows URL elicitations and a played user who approves each one. It counts the
 * prompts of the demo's own session (`tools/demo-session.ts`) under the default policy, checks
 * that `--scopes least` still asks one scope per call, and that under `--read-only` a school's
 * challenge cannot make a consent ask for scopes that no read operation accepts (AZ-08).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeConsent, startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { DEMO_PROMPT_BUDGET, runAdministratorTasks, type ToolResult } from '../../tools/demo-session.js';
import { startStdioServer, type StdioServer } from '../helpers/mcp-stdio.js';

/** The reads of the toolsets whose operations the default list has (DEFAULT_TOOLS). */
const DEFAULT_READS = [
  'analytics:read',
  'comments:read',
  'coupons:read',
  'courses:read',
  'curriculum:read',
  'forms:read',
  'members:read',
  'membership_plans:read',
  'orders:read',
  'posts:read',
  'school:read',
  'students:read',
  'subscriptions:read',
];
/** With --read-only the default list loses its writes, and with them the posts and membership_plans toolsets. */
const READ_ONLY_DEFAULT_READS = DEFAULT_READS.filter(
  (scope) => scope !== 'posts:read' && scope !== 'membership_plans:read',
);

/** A stdio server whose client shows every URL elicitation to a user who approves it, and keeps the links. */
async function approvingServer(
  args: readonly string[],
  configDir?: string,
): Promise<{ server: StdioServer; prompts: string[] }> {
  const prompts: string[] = [];
  const server = await startStdioServer({
    args,
    capabilities: { elicitation: { url: {} } },
    ...(configDir === undefined ? {} : { configDir }),
  });
  server.client.setRequestHandler('elicitation/create', async (request) => {
    const { url } = request.params as { url: string };
    prompts.push(url);
    await (await fetch(await completeConsent(url, 'allow'))).text();
    return { action: 'accept' };
  });
  return { server, prompts };
}

const scopesOf = (link: string) => (new URL(link).searchParams.get('scope') ?? '').split(' ').filter(Boolean).sort();
const textOf = (result: ToolResult) => (result.content ?? []).map((block) => block.text ?? '').join('\n');

function caller(server: StdioServer) {
  return async (name: string, args: Record<string, unknown> = {}): Promise<ToolResult> => {
    const result = (await server.client.callTool({ name, arguments: args })) as ToolResult;
    expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
    return result;
  };
}

describe('the default consent policy', () => {
  let sandbox: RunningSandbox;
  let configDir: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ autoApprove: false });
    configDir = await mkdtemp(join(tmpdir(), 'school-mcp-e2e-'));
  });

  afterAll(async () => {
    await sandbox?.close();
    await rm(configDir, { recursive: true, force: true });
  });

  it(`AZ-06 the demo session takes ${DEMO_PROMPT_BUDGET} prompts: the reads of the listed toolsets together, then each write once`, async () => {
    const { server, prompts } = await approvingServer(['--school', sandbox.url, '--no-browser'], configDir);
    try {
      await runAdministratorTasks(
        caller(server),
        () => undefined,
        () => undefined,
      );
    } finally {
      await server.close();
    }
    expect(prompts).toHaveLength(DEMO_PROMPT_BUDGET);
    expect(scopesOf(prompts[0]!)).toEqual([...DEFAULT_READS, 'openid', 'profile'].sort());
    // Each later prompt adds exactly one write: its group's read was granted with the first.
    const added = prompts
      .slice(1)
      .map((link, index) => scopesOf(link).filter((scope) => !scopesOf(prompts[index]!).includes(scope)));
    expect(added).toEqual([['coupons:write'], ['members:write'], ['students:write']]);
  });

  it('a second session on the same machine needs no prompt for the same reads and writes', async () => {
    const { server, prompts } = await approvingServer(['--school', sandbox.url, '--no-browser'], configDir);
    try {
      const call = caller(server);
      await call('get_school');
      await call('list_orders', { per_page: 1 });
      await call('create_coupon', { code: 'SECOND10', discount_type: 'percent', percent_off: 10 });
    } finally {
      await server.close();
    }
    expect(prompts).toEqual([]);
  });

  it('AZ-06 --scopes least asks for one scope per call, and a write without its read', async () => {
    const { server, prompts } = await approvingServer(['--school', sandbox.url, '--no-browser', '--scopes', 'least']);
    try {
      const call = caller(server);
      await call('get_school');
      await call('list_orders', { per_page: 1 });
      await call('create_coupon', { code: 'LEAST10', discount_type: 'percent', percent_off: 10 });
    } finally {
      await server.close();
    }
    expect(prompts.map(scopesOf)).toEqual([
      ['openid', 'profile', 'school:read'],
      ['openid', 'orders:read', 'profile', 'school:read'],
      ['coupons:write', 'openid', 'orders:read', 'profile', 'school:read'],
    ]);
  });
});

describe('read-only mode and the school', () => {
  let sandbox: RunningSandbox;
  let server: StdioServer;
  let prompts: string[];

  beforeAll(async () => {
    sandbox = await startSandbox({
      autoApprove: false,
      faults: {
        scopeChallenges: {
          'GET /api/v1/courses': { scope: 'admin courses:delete write:org' },
          // posts:read is accepted by a read operation of the document, though not listed here.
          'GET /api/v1/orders': { scope: 'orders:read posts:read' },
        },
      },
    });
    ({ server, prompts } = await approvingServer(['--school', sandbox.url, '--no-browser', '--read-only']));
  });

  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });

  it('AZ-08 a 403 challenge on a GET naming admin courses:delete write:org is refused with a coded result, and no consent asks for them', async () => {
    const result = (await server.client.callTool({ name: 'list_courses', arguments: {} })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/list_courses did not run \(OAUTH_READ_ONLY\)/);
    expect(textOf(result)).toContain('admin courses:delete write:org, which no read operation');
    expect(textOf(result)).toMatch(/Next step: /);
    // One consent, the first sign-in for the reads; none for what the school asked.
    expect(prompts).toHaveLength(1);
    expect(scopesOf(prompts[0]!)).toEqual([...READ_ONLY_DEFAULT_READS, 'openid', 'profile'].sort());
    expect(sandbox.countRequests('/api/v1/courses', 'GET')).toBe(1);
  });

  it('AZ-08 a challenge naming a scope that a read operation accepts is asked for, and the call goes through', async () => {
    const result = (await server.client.callTool({ name: 'list_orders', arguments: { per_page: 1 } })) as ToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(prompts).toHaveLength(2);
    expect(scopesOf(prompts[1]!).filter((scope) => !scopesOf(prompts[0]!).includes(scope))).toEqual(['posts:read']);
  });
});
