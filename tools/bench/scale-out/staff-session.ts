/**
 * One staff member connected through the deployment's public URL the way a web chat client does
 * it: the MCP SDK's client with its OAuth provider, school-mcp's consent page and the school's
 * walked by a cookie browser, then a 2026-07-28 (stateless) connection that can take a URL
 * elicitation, answered by walking the step-up page as that same person. Every request goes
 * through the load balancer, so one sign-in's steps land on several instances.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { randomBytes } from 'node:crypto';
import { completeConsent, type StaffMember } from '@school-mcp/sandbox';
import { MemoryOAuthProvider } from '../../../test/helpers/memory-oauth-provider.js';
import { CookieBrowser, hiddenInput } from '../cookie-browser.js';

/** The MCP client's redirect URI; nothing listens there, the browser stops before it. */
const CLIENT_REDIRECT = 'http://127.0.0.1:47123/callback';

export interface StaffSession {
  readonly member: StaffMember;
  readonly client: Client;
  readonly provider: MemoryOAuthProvider;
  /** Written to the person's account by the step-up call; no one else may ever read it. */
  readonly canary: string;
  /** Step-up pages this person walked. */
  stepUps: number;
}

/** A sign-in begun: the browser is at school-mcp's consent page. */
export interface PendingSignIn {
  /** Allows at school-mcp and at the school, and connects: the rest of the sign-in. */
  finish(): Promise<StaffSession>;
}

async function openConsentPage(
  browser: CookieBrowser,
  authorizationUrl: URL,
): Promise<{ consentUrl: URL; csrf: string }> {
  const { response, url } = await browser.follow(
    authorizationUrl,
    (next) => next.origin === authorizationUrl.origin && !next.href.startsWith(CLIENT_REDIRECT),
  );
  const html = await response.text();
  const csrf = hiddenInput(html, 'csrf_token');
  if (response.status !== 200 || csrf === undefined)
    throw new Error(`no consent page at ${url.pathname} (${response.status}): ${html.slice(0, 200)}`);
  return { consentUrl: url, csrf };
}

/** The person at the step-up page: continue, approve at the school as themselves, land on "Granted". */
async function walkStepUp(url: string, member: StaffMember): Promise<void> {
  const browser = new CookieBrowser();
  const page = await browser.request(url);
  const csrf = hiddenInput(await page.text(), 'csrf_token');
  if (page.status !== 200 || csrf === undefined) throw new Error(`no step-up page (${page.status})`);
  const toSchool = await browser.request(url, { form: { csrf_token: csrf, decision: 'allow' } });
  const location = toSchool.headers.get('location');
  if (location === null)
    throw new Error(`the step-up page refused (${toSchool.status}): ${(await toSchool.text()).slice(0, 200)}`);
  const back = await browser.request(await completeConsent(location, 'allow', { user: member.sub }));
  const text = await back.text();
  if (!/Granted/.test(text)) throw new Error(`the step-up did not end granted (${back.status}): ${text.slice(0, 200)}`);
}

/** Registers, and opens school-mcp's consent page; the caller decides when to finish. */
export async function beginSignIn(publicUrl: string, member: StaffMember): Promise<PendingSignIn> {
  const mcpUrl = new URL('/mcp', publicUrl);
  const provider = new MemoryOAuthProvider(CLIENT_REDIRECT, `scale-out agent for ${member.sub}`);
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  const first = new Client({ name: 'scale-out', version: '1.0.0' }, { capabilities: {} });
  const refused = await first.connect(transport).then(
    () => false,
    () => true,
  );
  if (!refused || provider.authorizationUrl === undefined)
    throw new Error('the first connection was not sent to sign in');
  const browser = new CookieBrowser();
  const { consentUrl, csrf } = await openConsentPage(browser, provider.authorizationUrl);
  return {
    async finish() {
      const allowed = await browser.request(consentUrl, { form: { csrf_token: csrf, decision: 'allow' } });
      const toSchool = allowed.headers.get('location');
      if (allowed.status !== 303 || toSchool === null)
        throw new Error(`allow was refused (${allowed.status}): ${(await allowed.text()).slice(0, 200)}`);
      const callback = await completeConsent(toSchool, 'allow', { user: member.sub });
      const { url } = await browser.follow(callback, (next) => !next.href.startsWith(CLIENT_REDIRECT));
      if (!url.href.startsWith(CLIENT_REDIRECT) || url.searchParams.get('code') === null)
        throw new Error(`the sign-in stopped at ${url.pathname}`);
      await transport.finishAuth(url.searchParams);
      const client = new Client(
        { name: 'scale-out', version: '1.0.0' },
        { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: 'auto' as const } },
      );
      const session: StaffSession = {
        member,
        client,
        provider,
        canary: `canary-${randomBytes(9).toString('hex')}`,
        stepUps: 0,
      };
      client.setRequestHandler('elicitation/create', async (request) => {
        const { url: stepUpUrl } = request.params as { url?: string };
        if (stepUpUrl === undefined) return { action: 'decline' };
        await walkStepUp(stepUpUrl, member);
        session.stepUps += 1;
        return { action: 'accept' };
      });
      await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
      return session;
    },
  };
}

async function signInStaff(publicUrl: string, member: StaffMember): Promise<StaffSession> {
  return (await beginSignIn(publicUrl, member)).finish();
}

/** Signs everyone in, `parallel` at a time. */
export async function signInEveryone(
  publicUrl: string,
  members: readonly StaffMember[],
  parallel: number,
): Promise<StaffSession[]> {
  const sessions: StaffSession[] = new Array(members.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < members.length) {
        const index = next++;
        sessions[index] = await signInStaff(publicUrl, members[index]!);
      }
    }),
  );
  return sessions;
}
