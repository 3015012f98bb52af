/**
 * Hosted mode meets a school that asks for more than its OpenAPI document declares: the school
 * answers a call 403 `insufficient_scope`, and the call steps that person up (and only them),
 * through the same pipeline as a local call, with its budget, progress and words. Real HTTP: an
 * in-process hosted deployment of two instances on one store, a real sandbox school whose faults
 * understate scopes, the MCP SDK's clients, and a cookie browser at the step-up page and the school.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHOOL_GRANTS } from '../../src/hosted/index.js';
import { completeConsent, SANDBOX_STAFF } from '@school-mcp/sandbox';
import { CookieBrowser, hiddenInput } from '../../tools/bench/cookie-browser.js';
import {
  connectStatelessClient,
  exchange,
  registerMcpClient,
  signIn,
  startHosted,
  type Hosted,
} from '../app/support/hosted-harness.js';

const COURSES = '/api/v1/courses';
const ACCOUNT = '/api/v1/account';

let hosted: Hosted;
beforeAll(async () => {
  hosted = await startHosted({
    tools: true,
    schoolScopes: ['account:read', 'courses:read'],
    instances: 2,
    sandbox: {
      faults: {
        scopeChallenges: {
          // The document declares courses:read for list_courses; the school wants students:read as well.
          [`GET ${COURSES}`]: { scope: 'courses:read students:read' },
          // A school that refuses get_account whatever is granted.
          [`GET ${ACCOUNT}`]: { scope: 'account:read analytics:read', evenWhenGranted: true },
        },
      },
    },
  });
});
afterAll(async () => {
  await hosted?.close();
});

function textOf(result: unknown): string {
  return ((result as { content: { type: string; text?: string }[] }).content ?? [])
    .map((item) => item.text ?? '')
    .join('\n');
}

async function grantedScopes(sub: string): Promise<string[]> {
  return ((await hosted.store.read(SCHOOL_GRANTS, sub)) as { scopes: string[] }).scopes;
}

/** A 2025-11-25 client of `user`, declaring URL elicitation or not. */
async function connectSessionful(user: string, elicitation: boolean): Promise<Client> {
  const registered = await registerMcpClient(hosted.base);
  const { code, verifier } = await signIn(hosted, registered, user);
  const accessToken = String((await exchange(hosted.base, registered, code, verifier)).body.access_token);
  const client = new Client(
    { name: 'hosted-challenge-test', version: '1.0.0' },
    { capabilities: elicitation ? { elicitation: { url: {} } } : {} },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${hosted.base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
    }),
  );
  return client;
}

interface Approval {
  /** What school-mcp asked the school for. */
  readonly askedScopes: string[];
  readonly status: number;
  /** The text of the page the person lands on. */
  readonly page: string;
}

/** The person opens the step-up link in their browser, continues, and approves at the school as `user`. */
async function approve(link: string, user: string): Promise<Approval> {
  const browser = new CookieBrowser();
  const csrf = hiddenInput(await (await browser.request(link)).text(), 'csrf_token');
  expect(csrf).toBeDefined();
  const toSchool = await browser.request(link, { form: { csrf_token: csrf!, decision: 'allow' } });
  expect(toSchool.status).toBe(303);
  const schoolUrl = new URL(toSchool.headers.get('location')!);
  const landed = await browser.request(await completeConsent(schoolUrl, 'allow', { user }));
  return {
    askedScopes: (schoolUrl.searchParams.get('scope') ?? '').split(' '),
    status: landed.status,
    page: await landed.text(),
  };
}

describe('hosted mode: a 403 insufficient_scope from the school steps up the person whose call it refused', () => {
  it('HOST-37 ERR-03 asks that person alone for granted ∪ challenged through a URL elicitation, with progress, and finishes the original call once they approve in the browser', async () => {
    const [adaMember, graceMember] = [SANDBOX_STAFF[0]!, SANDBOX_STAFF[1]!];
    const [ada, grace] = await Promise.all([
      connectSessionful(adaMember.sub, true),
      connectSessionful(graceMember.sub, true),
    ]);
    const approvals: Approval[] = [];
    ada.setRequestHandler('elicitation/create', async (request) => {
      const { url, message } = request.params as { url: string; message: string };
      expect(url).toMatch(new RegExp(`^${hosted.base}/step-up/`));
      // The words of every mode: the tool, the school, what approving grants with the school's description.
      expect(message).toMatch(
        /^list_courses needs your approval at 127\.0\.0\.1:\d+ to grant: students:read \(Read access to students\)/,
      );
      approvals.push(await approve(url, adaMember.sub));
      return { action: 'accept' };
    });
    const gracePrompts: string[] = [];
    grace.setRequestHandler('elicitation/create', async (request) => {
      gracePrompts.push((request.params as { url: string }).url);
      return { action: 'decline' };
    });
    const progress: string[] = [];
    const before = hosted.sandbox.countRequests(COURSES, 'GET');
    try {
      const courses = await ada.callTool(
        { name: 'list_courses', arguments: {} },
        { onprogress: (notice) => void progress.push(String(notice.message)) },
      );
      expect(courses.isError, textOf(courses)).toBeFalsy();
      expect(JSON.stringify(courses.structuredContent ?? textOf(courses))).toMatch(/crs_/);
      // Refused once, then run again with the new grant in the same call.
      expect(hosted.sandbox.countRequests(COURSES, 'GET') - before).toBe(2);
      expect(approvals).toHaveLength(1);
      expect(approvals[0]!.status).toBe(200);
      expect(approvals[0]!.askedScopes).toEqual(
        expect.arrayContaining(['account:read', 'courses:read', 'students:read', 'openid', 'profile']),
      );
      // The call waited for the approval: the page says it finishes by itself, not to ask again.
      expect(approvals[0]!.page).toMatch(/Granted/);
      expect(approvals[0]!.page).toMatch(/finishes on its own/);
      expect(approvals[0]!.page).not.toMatch(/ask again/);
      expect(
        progress.some((message) => /^Waiting for approval at 127\.0\.0\.1:\d+ of students:read/.test(message)),
      ).toBe(true);
      expect(await grantedScopes(adaMember.sub)).toContain('students:read');

      // Nobody else was asked, and nobody else's grant changed.
      expect(textOf(await grace.callTool({ name: 'who_am_i', arguments: {} }))).toContain(graceMember.name);
      expect(gracePrompts).toEqual([]);
      expect(await grantedScopes(graceMember.sub)).not.toContain('students:read');
    } finally {
      await Promise.allSettled([ada.close(), grace.close()]);
    }
  });

  it('HOST-37 puts the step-up link in the result when the client takes no elicitation, and the page then says to ask again', async () => {
    const alanMember = SANDBOX_STAFF[2]!;
    const alan = await connectSessionful(alanMember.sub, false);
    try {
      const first = await alan.callTool({ name: 'list_courses', arguments: {} });
      expect(first.isError).toBe(true);
      const text = textOf(first);
      expect(text).toMatch(
        /list_courses has not run yet: it needs a permission at 127\.0\.0\.1:\d+ that this person has not granted to school-mcp: students:read \(Read access to students\)/,
      );
      expect(text).not.toMatch(/sign in again|connect the application/i);
      // Hosted words: the approval reaches the server, not a process on the user's computer.
      expect(text).not.toMatch(/this computer|school-mcp login|--link-wait/);
      const link = new RegExp(`${hosted.base}/step-up/[A-Za-z0-9_-]+`).exec(text)?.[0];
      expect(link).toBeDefined();
      const approval = await approve(link!, alanMember.sub);
      expect(approval.status).toBe(200);
      expect(approval.askedScopes).toEqual(expect.arrayContaining(['courses:read', 'students:read']));
      expect(approval.page).toMatch(/Granted/);
      expect(approval.page).toMatch(/ask again/);
      expect(approval.page).not.toMatch(/finishes on its own/);
      const again = await alan.callTool({ name: 'list_courses', arguments: {} });
      expect(again.isError, textOf(again)).toBeFalsy();
    } finally {
      await alan.close();
    }
  });

  it('HOST-37 HOST-38 resumes a 2026-07-28 retry on the other instance: it waits there for the approval instead of asking again', async () => {
    // Grace has not approved students:read yet (the first test checks it).
    const member = SANDBOX_STAFF[1]!;
    const retries: string[] = [];
    const { client } = await connectStatelessClient(
      hosted,
      member.sub,
      (state) => (retries.push(state), { state, url: `${hosted.instances[1]!.url}/mcp` }),
    );
    const prompts: string[] = [];
    let approval: Promise<Approval> | undefined;
    // Accepts at once; the person approves in the browser only once the retry is waiting (its first progress notice).
    client.setRequestHandler('elicitation/create', async (request) => {
      prompts.push((request.params as { url: string }).url);
      return { action: 'accept' };
    });
    try {
      const courses = await client.callTool(
        { name: 'list_courses', arguments: {} },
        {
          onprogress: (notice) => {
            // The server's own notice of the wait (the SDK's driver reports its rounds here too).
            if (/^Waiting for approval/.test(String(notice.message)) && prompts.length > 0)
              approval ??= approve(prompts[0]!, member.sub);
          },
        },
      );
      expect(courses.isError, textOf(courses)).toBeFalsy();
      expect(prompts).toHaveLength(1);
      expect(retries).toHaveLength(1);
      expect(approval).toBeDefined();
      const approved = await approval!;
      expect(approved.page).toMatch(/finishes on its own/);
    } finally {
      await client.close();
    }
  });
});

describe('hosted mode: a school that keeps refusing after the step-up', () => {
  it('HOST-37 ERR-03 steps up once, then stops after the budget with the exhausted words, and does not ask again for that operation', async () => {
    const adaMember = SANDBOX_STAFF[0]!;
    const ada = await connectSessionful(adaMember.sub, true);
    const prompts: string[] = [];
    ada.setRequestHandler('elicitation/create', async (request) => {
      const { url } = request.params as { url: string };
      prompts.push(url);
      expect((await approve(url, adaMember.sub)).status).toBe(200);
      return { action: 'accept' };
    });
    const before = hosted.sandbox.countRequests(ACCOUNT, 'GET');
    try {
      const refused = await ada.callTool({ name: 'get_account', arguments: {} });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(
        /keeps refusing get_account for lack of account:read \(Read access to account\), analytics:read \(Read access to analytics\), although it was asked for and granted/,
      );
      expect(textOf(refused)).toMatch(/will not ask again for get_account/);
      expect(prompts).toHaveLength(1);
      expect(await grantedScopes(adaMember.sub)).toContain('analytics:read');
      // The first refusal and three step-ups' retries: the budget of three, then it stops.
      expect(hosted.sandbox.countRequests(ACCOUNT, 'GET') - before).toBe(4);

      const again = await ada.callTool({ name: 'get_account', arguments: {} });
      expect(textOf(again)).toMatch(/keeps refusing get_account/);
      expect(prompts).toHaveLength(1);
    } finally {
      await ada.close();
    }
  });
});
