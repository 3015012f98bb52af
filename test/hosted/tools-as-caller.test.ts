import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHOOL_GRANTS } from '../../src/hosted/index.js';
import { SANDBOX_STAFF } from '@school-mcp/sandbox';
import { CookieBrowser } from '../../tools/bench/cookie-browser.js';
import {
  approveStepUp,
  connectStatelessClient,
  exchange,
  registerMcpClient,
  signIn,
  startHosted,
  type Hosted,
  type StatelessConnection,
} from '../app/support/hosted-harness.js';

/**
 * A call waits this long for a step-up's approval: the longest the option allows, so that a call
 * ended early (HOST-60) ends well before it however loaded the machine, and no test here races it.
 */
const CONSENT_WAIT_SECONDS = 600;

let hosted: Hosted;
beforeAll(async () => {
  hosted = await startHosted({
    tools: true,
    schoolScopes: ['account:read', 'courses:read'],
    consentWaitSeconds: CONSENT_WAIT_SECONDS,
  });
});
afterAll(async () => {
  await hosted.close();
});

interface Connected {
  readonly client: Client;
  readonly accessToken: string;
}

async function connectAs(user: string, capabilities: Record<string, unknown> = {}): Promise<Connected> {
  const registered = await registerMcpClient(hosted.base);
  const { code, verifier } = await signIn(hosted, registered, user);
  const tokens = await exchange(hosted.base, registered, code, verifier);
  const accessToken = String(tokens.body.access_token);
  const client = new Client({ name: 'hosted-test', version: '1.0.0' }, { capabilities });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${hosted.base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
    }),
  );
  return { client, accessToken };
}

function textOf(result: unknown): string {
  return ((result as { content: { type: string; text?: string }[] }).content ?? [])
    .map((item) => item.text ?? '')
    .join('\n');
}

describe('hosted mode: tools act as the caller', () => {
  it('HOST-14 gives three staff members at once each their own who_am_i, and one sign-out leaves the others working', async () => {
    const people = await Promise.all(
      SANDBOX_STAFF.slice(0, 3).map(async (member) => ({ member, connected: await connectAs(member.sub) })),
    );
    for (const { member, connected } of people) {
      const tools = await connected.client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toContain('who_am_i');
      const text = textOf(await connected.client.callTool({ name: 'who_am_i', arguments: {} }));
      expect(text).toContain(member.name);
      for (const other of SANDBOX_STAFF.filter((staff) => staff.sub !== member.sub))
        expect(text).not.toContain(other.name);
    }
    const courses = (await people[1]!.connected.client.callTool({ name: 'list_courses', arguments: {} })) as {
      isError?: boolean;
    };
    expect(courses.isError).toBeFalsy();

    const [leaving, ...staying] = people;
    const signOut = await leaving!.connected.client.callTool({ name: 'sign_out', arguments: {} });
    expect(textOf(signOut)).toMatch(/Signed out/);
    expect(hosted.sandbox.countRequests('/api/oauth/revoke')).toBeGreaterThanOrEqual(1);
    expect(await hosted.store.read(SCHOOL_GRANTS, leaving!.member.sub)).toBeUndefined();
    expect(await hosted.store.read(SCHOOL_GRANTS, staying[0]!.member.sub)).toBeDefined();
    const after = await fetch(`${hosted.base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${leaving!.connected.accessToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(after.status).toBe(401);
    for (const { member, connected } of staying) {
      expect(textOf(await connected.client.callTool({ name: 'who_am_i', arguments: {} }))).toContain(member.name);
    }
    await Promise.allSettled(people.map(({ connected }) => connected.client.close()));
  });

  it('HOST-14 tells a person whose school grant ended to connect again, in who_am_i as in a tool call', async () => {
    const member = SANDBOX_STAFF[0]!;
    const connected = await connectAs(member.sub);
    try {
      expect(textOf(await connected.client.callTool({ name: 'who_am_i', arguments: {} }))).toContain(member.name);
      // What the school ending the grant (a rotated-out refresh token came back) leaves in the store.
      await hosted.store.remove(SCHOOL_GRANTS, member.sub);
      const who = await connected.client.callTool({ name: 'who_am_i', arguments: {} });
      expect(who.isError).toBeFalsy();
      expect(textOf(who)).toMatch(
        /^Not signed in to the school http:\/\/127\.0\.0\.1:\d+\. Ask the user to connect the application to school-mcp again/,
      );
      expect(textOf(who)).not.toMatch(/first tool call/);
      const call = await connected.client.callTool({ name: 'list_courses', arguments: {} });
      expect(call.isError).toBe(true);
      expect(textOf(call)).toMatch(/OAUTH_SIGN_IN_REQUIRED[\s\S]*connect the application to school-mcp again/);
    } finally {
      await connected.client.close();
    }
  });

  it("HOST-15 steps up one person through a link in that person's result only, refusing it for anyone else who signs in at the school", async () => {
    const [alanMember, graceMember] = [SANDBOX_STAFF[2]!, SANDBOX_STAFF[1]!];
    const [alan, grace] = await Promise.all([connectAs(alanMember.sub), connectAs(graceMember.sub)]);
    const create = () =>
      alan.client.callTool({
        name: 'create_member',
        arguments: { email: 'cryptanalysis@example.com', name: 'Cryptanalysis' },
      }) as Promise<{ isError?: boolean }>;
    const needed = await create();
    expect(needed.isError).toBe(true);
    expect(textOf(needed)).toMatch(/members:write/);
    const link = new RegExp(`${hosted.base}/step-up/[A-Za-z0-9_-]+`).exec(textOf(needed))?.[0];
    expect(link).toBeDefined();
    // Grace's session meanwhile: no prompt, no link, her own answers.
    const graceText = textOf(await grace.client.callTool({ name: 'who_am_i', arguments: {} }));
    expect(graceText).toContain(graceMember.name);
    expect(graceText).not.toMatch(/step-up/);

    // Someone opens Alan's link but signs in at the school as Grace: refused, nobody's grant changes.
    const impostor = await approveStepUp(link!, graceMember.sub);
    expect(impostor.status).toBe(400);
    expect((await hosted.store.read(SCHOOL_GRANTS, graceMember.sub)) as { scopes: string[] }).toMatchObject({
      scopes: expect.not.arrayContaining(['members:write']),
    });
    expect((await create()).isError).toBe(true);

    const again = new RegExp(`${hosted.base}/step-up/[A-Za-z0-9_-]+`).exec(textOf(await create()))![0];
    const approved = await approveStepUp(again, alanMember.sub);
    expect(approved.status).toBe(200);
    expect(await approved.text()).toMatch(/Granted/);
    expect((await create()).isError).toBeFalsy();
    expect((await new CookieBrowser().request(again)).status).toBe(400);
    await Promise.allSettled([alan.client.close(), grace.client.close()]);
  });
});

describe('hosted mode: step-up in the conversation', () => {
  it("HOST-15 sends the step-up link to the person's own session as a URL elicitation and finishes the call once granted, never prompting another", async () => {
    const [adaMember, graceMember] = [SANDBOX_STAFF[0]!, SANDBOX_STAFF[1]!];
    const [ada, grace] = await Promise.all([
      connectAs(adaMember.sub, { elicitation: { url: {} } }),
      connectAs(graceMember.sub, { elicitation: { url: {} } }),
    ]);
    const prompted: Record<string, string[]> = { ada: [], grace: [] };
    ada.client.setRequestHandler('elicitation/create', async (request) => {
      const { url } = request.params as { url: string };
      prompted.ada!.push(url);
      expect((await approveStepUp(url, adaMember.sub)).status).toBe(200);
      return { action: 'accept' };
    });
    grace.client.setRequestHandler('elicitation/create', async (request) => {
      prompted.grace!.push((request.params as { url: string }).url);
      return { action: 'decline' };
    });
    const created = (await ada.client.callTool({
      name: 'create_member',
      arguments: { email: 'analytical.engines@example.com', name: 'Analytical Engines' },
    })) as { isError?: boolean };
    expect(created.isError, textOf(created)).toBeFalsy();
    expect(prompted.ada).toHaveLength(1);
    expect(prompted.ada![0]).toMatch(new RegExp(`^${hosted.base}/step-up/`));
    expect(prompted.grace).toEqual([]);
    expect(textOf(await grace.client.callTool({ name: 'who_am_i', arguments: {} }))).toContain(graceMember.name);
    expect(prompted.grace).toEqual([]);
    await Promise.allSettled([ada.client.close(), grace.client.close()]);
  });
});

describe('hosted mode: a step-up answered by someone else', () => {
  it('HOST-60 ends the call waiting on a step-up at once when another person signs in at the school with its link, and grants nobody anything', async () => {
    const [alanMember, graceMember] = [SANDBOX_STAFF[2]!, SANDBOX_STAFF[1]!];
    const alan = await connectAs(alanMember.sub, { elicitation: { url: {} } });
    let answered: number | undefined;
    alan.client.setRequestHandler('elicitation/create', async (request) => {
      // Alan's link, but Grace is the one signed in at the school in that browser.
      expect((await approveStepUp((request.params as { url: string }).url, graceMember.sub)).status).toBe(400);
      answered = Date.now();
      return { action: 'accept' };
    });
    // A permission nobody was granted in this file: comments:read. A call not ended by the refusal
    // would wait the ten minutes for an approval, and fail this test on its budget.
    const created = (await alan.client.callTool({ name: 'list_comments', arguments: {} })) as { isError?: boolean };
    expect(answered).toBeDefined();
    expect(created.isError).toBe(true);
    expect(textOf(created)).toMatch(/HOSTED_STEP_UP_OTHER_PERSON[\s\S]*someone other than the person/);
    expect(textOf(created)).not.toMatch(/OAUTH_CONSENT_PENDING/);
    for (const member of [alanMember, graceMember]) {
      expect(
        ((await hosted.store.read(SCHOOL_GRANTS, member.sub)) as { scopes: string[] } | undefined)?.scopes ?? [],
      ).not.toContain('comments:read');
    }
    await alan.client.close();
  });
});

describe("hosted mode: the school's tokens expire", () => {
  it("HOST-16 refreshes a person's expired school token before the call, rotating the refresh token in the store", async () => {
    const shortLived = await startHosted({
      tools: true,
      schoolScopes: ['courses:read'],
      sandbox: { accessTokenTtlSeconds: 5 },
    });
    try {
      const grace = SANDBOX_STAFF[1]!;
      const registered = await registerMcpClient(shortLived.base);
      const { code, verifier } = await signIn(shortLived, registered, grace.sub);
      const token = String((await exchange(shortLived.base, registered, code, verifier)).body.access_token);
      const client = new Client({ name: 'hosted-test', version: '1.0.0' }, { capabilities: {} });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${shortLived.base}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      const before = (await shortLived.store.read(SCHOOL_GRANTS, grace.sub)) as {
        accessToken: string;
        refreshToken: string;
      };
      const tokenCalls = shortLived.sandbox.countRequests('/api/oauth/token');
      // Five seconds is inside the refresh margin: the grant counts as expired at once.
      const courses = (await client.callTool({ name: 'list_courses', arguments: {} })) as { isError?: boolean };
      expect(courses.isError).toBeFalsy();
      expect(shortLived.sandbox.countRequests('/api/oauth/token')).toBeGreaterThan(tokenCalls);
      const after = (await shortLived.store.read(SCHOOL_GRANTS, grace.sub)) as {
        accessToken: string;
        refreshToken: string;
      };
      expect(after.accessToken).not.toBe(before.accessToken);
      expect(after.refreshToken).not.toBe(before.refreshToken);
      await client.close();
    } finally {
      await shortLived.close();
    }
  });
});

describe('hosted mode: step-up in the conversation on the 2026-07-28 revision', () => {
  let stateless: Hosted;
  beforeAll(async () => {
    stateless = await startHosted({ tools: true, schoolScopes: ['account:read', 'courses:read'] });
  });
  afterAll(async () => {
    await stateless.close();
  });

  /** A 2026-07-28 client of `stateless`; every `requestState` it sends back passes through `onState`, which may replace it. */
  const connectStateless = (
    user: string,
    onState: (state: string) => string = (state) => state,
  ): Promise<StatelessConnection> => connectStatelessClient(stateless, user, (state) => ({ state: onState(state) }));

  it('HOST-15 answers with an input-required URL elicitation of the step-up link, and the retry with the answer runs the call once granted', async () => {
    const adaMember = SANDBOX_STAFF[0]!;
    const states: string[] = [];
    const ada = await connectStateless(adaMember.sub, (state) => (states.push(state), state));
    const prompted: string[] = [];
    ada.client.setRequestHandler('elicitation/create', async (request) => {
      const { url } = request.params as { url: string };
      prompted.push(url);
      expect((await approveStepUp(url, adaMember.sub)).status).toBe(200);
      return { action: 'accept' };
    });
    const created = await ada.client.callTool({
      name: 'create_member',
      arguments: { email: 'ada.modern@example.com', name: 'Difference Engines' },
    });
    expect((created as { isError?: boolean }).isError, textOf(created)).toBeFalsy();
    expect(textOf(created)).toContain('ada.modern@example.com');
    expect(prompted).toHaveLength(1);
    expect(prompted[0]).toMatch(new RegExp(`^${stateless.base}/step-up/`));
    // The link came in an input-required result, not a server-to-client request: the retry echoed its state.
    expect(states).toHaveLength(1);
    await ada.client.close();
  });

  it('HOST-15 ends the call as declined when the person declines the input-required step-up, granting nothing', async () => {
    const alanMember = SANDBOX_STAFF[2]!;
    const alan = await connectStateless(alanMember.sub);
    alan.client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
    const result = (await alan.client.callTool({
      name: 'create_member',
      arguments: { email: 'alan.declined@example.com', name: 'Declined' },
    })) as { isError?: boolean };
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/declined/);
    expect((await stateless.store.read(SCHOOL_GRANTS, alanMember.sub)) as { scopes: string[] }).toMatchObject({
      scopes: expect.not.arrayContaining(['members:write']),
    });
    await alan.client.close();
  });

  it('HOST-26 refuses a step-up requestState that was altered or that was minted for another person, running nothing', async () => {
    const [alanMember, graceMember] = [SANDBOX_STAFF[2]!, SANDBOX_STAFF[1]!];
    let alanState: string | undefined;
    const alan = await connectStateless(alanMember.sub, (state) => (alanState = state));
    alan.client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
    expect(
      textOf(
        await alan.client.callTool({
          name: 'create_member',
          arguments: { email: 'replayed@example.com', name: 'Replayed' },
        }),
      ),
    ).toMatch(/declined/);
    expect(alanState).toBeDefined();

    let replace: (state: string) => string = (state) => state;
    const grace = await connectStateless(graceMember.sub, (state) => replace(state));
    let graceAnswers: 'accept' | 'decline' = 'accept';
    grace.client.setRequestHandler('elicitation/create', async () => ({ action: graceAnswers }));

    replace = () => alanState!;
    const foreign = (await grace.client.callTool({
      name: 'create_member',
      arguments: { email: 'replayed@example.com', name: 'Replayed' },
    })) as { isError?: boolean };
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign)).toMatch(/approval state sent back was altered.*refused/);

    replace = (state) => `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`;
    const tampered = (await grace.client.callTool({
      name: 'create_member',
      arguments: { email: 'tampered@example.com', name: 'Tampered' },
    })) as { isError?: boolean };
    expect(tampered.isError).toBe(true);
    expect(textOf(tampered)).toMatch(/approval state sent back was altered.*refused/);

    // Her own state, untouched, is taken (her answer decides), so the refusals above came from the state alone.
    replace = (state) => state;
    graceAnswers = 'decline';
    const honest = textOf(
      await grace.client.callTool({
        name: 'create_member',
        arguments: { email: 'honest@example.com', name: 'Honest' },
      }),
    );
    expect(honest).toMatch(/declined/);
    expect((await stateless.store.read(SCHOOL_GRANTS, graceMember.sub)) as { scopes: string[] }).toMatchObject({
      scopes: expect.not.arrayContaining(['members:write']),
    });
    await Promise.allSettled([alan.client.close(), grace.client.close()]);
  });
});
