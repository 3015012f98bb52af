/**
 * The one school grant of a person whose two clients stepped up for different permissions at the
 * same time: the second answer covers neither way, so the person is asked once more, for the union,
 * in the same browser.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHOOL_GRANTS } from '../../src/hosted/index.js';
import { completeConsent, SANDBOX_STAFF } from '@school-mcp/sandbox';
import { CookieBrowser, hiddenInput } from '../../tools/bench/cookie-browser.js';
import {
  approveStepUp,
  exchange,
  registerMcpClient,
  signIn,
  startHosted,
  type Hosted,
} from '../app/support/hosted-harness.js';

let hosted: Hosted;
beforeAll(async () => {
  hosted = await startHosted({ tools: true, schoolScopes: ['account:read'] });
});
afterAll(async () => {
  await hosted.close();
});

async function connectAs(user: string): Promise<Client> {
  const registered = await registerMcpClient(hosted.base);
  const { code, verifier } = await signIn(hosted, registered, user);
  const accessToken = String((await exchange(hosted.base, registered, code, verifier)).body.access_token);
  const client = new Client({ name: 'school-grant-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${hosted.base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
    }),
  );
  return client;
}

function stepUpLink(result: unknown): string {
  const text = ((result as { content: { text?: string }[] }).content ?? []).map((item) => item.text ?? '').join('\n');
  const link = new RegExp(`${hosted.base}/step-up/[A-Za-z0-9_-]+`).exec(text)?.[0];
  if (link === undefined) throw new Error(`no step-up link in: ${text}`);
  return link;
}

/**
 * Two clients of `member`'s each need a permission; the first link is approved, and the second is
 * answered at the school until school-mcp sends the browser back there for the union.
 */
async function crossStepUps(member: (typeof SANDBOX_STAFF)[number]) {
  const [reading, writing] = [await connectAs(member.sub), await connectAs(member.sub)];
  const listComments = () =>
    reading.callTool({ name: 'list_comments', arguments: {} }) as Promise<{ isError?: boolean }>;
  const createMember = () =>
    writing.callTool({
      name: 'create_member',
      arguments: { email: `union.${member.sub}@example.com`, name: 'Union' },
    }) as Promise<{ isError?: boolean }>;
  // Both links are made from the same grant, each asking for it plus its own permission.
  const [commentsLink, membersLink] = [stepUpLink(await listComments()), stepUpLink(await createMember())];
  expect((await approveStepUp(commentsLink, member.sub)).status).toBe(200);
  const revocations = hosted.sandbox.countRequests('/api/oauth/revoke');
  const browser = new CookieBrowser();
  const csrf = hiddenInput(await (await browser.request(membersLink)).text(), 'csrf_token')!;
  const toSchool = await browser.request(membersLink, { form: { csrf_token: csrf, decision: 'allow' } });
  const askedAgain = await browser.request(
    await completeConsent(toSchool.headers.get('location')!, 'allow', { user: member.sub }),
  );
  expect(askedAgain.status).toBe(303);
  const union = new URL(askedAgain.headers.get('location')!);
  expect(union.origin).toBe(new URL(hosted.sandbox.url).origin);
  expect(union.searchParams.get('scope')!.split(' ')).toEqual(
    expect.arrayContaining(['account:read', 'comments:read', 'members:write']),
  );
  // The crossed answer was discarded: its tokens are revoked at the school, the stored grant unchanged meanwhile.
  expect(hosted.sandbox.countRequests('/api/oauth/revoke')).toBeGreaterThan(revocations);
  expect(await scopesOf(member.sub)).toContain('comments:read');
  expect(await scopesOf(member.sub)).not.toContain('members:write');
  return {
    browser,
    union,
    listComments,
    createMember,
    close: () => Promise.allSettled([reading.close(), writing.close()]),
  };
}

async function scopesOf(sub: string): Promise<string[]> {
  return ((await hosted.store.read(SCHOOL_GRANTS, sub)) as { scopes: string[] }).scopes;
}

describe("a person's school grant when two step-ups cross", () => {
  it('HOST-32 asks the school once more for the union, in the same browser, and keeps both permissions', async () => {
    const ada = SANDBOX_STAFF[0]!;
    const crossed = await crossStepUps(ada);
    const done = await crossed.browser.request(await completeConsent(crossed.union, 'allow', { user: ada.sub }));
    expect(done.status).toBe(200);
    expect(await done.text()).toMatch(/Granted/);
    expect(await scopesOf(ada.sub)).toEqual(expect.arrayContaining(['comments:read', 'members:write']));
    expect((await crossed.listComments()).isError).toBeFalsy();
    expect((await crossed.createMember()).isError).toBeFalsy();
    await crossed.close();
  });

  it('HOST-32 keeps the grant as it was when the person declines the union, or another person answers it', async () => {
    const [grace, alan] = [SANDBOX_STAFF[1]!, SANDBOX_STAFF[2]!];
    const declined = await crossStepUps(grace);
    const answer = await declined.browser.request(await completeConsent(declined.union, 'deny', { user: grace.sub }));
    expect(answer.status).toBe(200);
    expect(await answer.text()).not.toMatch(/Granted/);
    expect(await scopesOf(grace.sub)).not.toContain('members:write');
    expect((await declined.listComments()).isError).toBeFalsy();
    await declined.close();

    const impersonated = await crossStepUps(alan);
    const revocations = hosted.sandbox.countRequests('/api/oauth/revoke');
    expect(
      (await impersonated.browser.request(await completeConsent(impersonated.union, 'allow', { user: grace.sub })))
        .status,
    ).toBe(400);
    expect(await scopesOf(alan.sub)).not.toContain('members:write');
    expect(await scopesOf(grace.sub)).not.toContain('members:write');
    expect(hosted.sandbox.countRequests('/api/oauth/revoke')).toBeGreaterThan(revocations);
    await impersonated.close();
  });
});
