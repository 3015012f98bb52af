/**
 * The hosted row: `school-mcp --hosted` in its own process against the sandbox school in another,
 * with `USERS` connections at once, each its own MCP client with its own OAuth sign-in and token
 * (the sandbox has three staff members, so the connections take turns among them). Each
 * connection calls a read tool back to back; every call's duration is kept, and calls per second
 * is all calls over the round's wall time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { completeConsent, SANDBOX_STAFF } from '@school-mcp/sandbox';
import { collectLines } from './child-lines.js';
import { CookieBrowser, hiddenInput } from './cookie-browser.js';
import { reasonOf } from './latency.js';
import { SCHOOL_MCP_MAIN } from './paths.js';
import type { Measured } from './results.js';
import { freePort } from './servers.js';
import { measureThroughput, type ThroughputCell, type ThroughputPlan } from './throughput-rounds.js';

export const HOSTED_USERS = 16;
const CLIENT_REDIRECT = 'http://127.0.0.1:47099/callback';
/** A read every connection may make with the first sign-in's scopes. */
const READ_TOOL = { name: 'list_courses', arguments: { per_page: 10 } } as const;

export type HostedCell = ThroughputCell;
/** `users`: connections at once, each with its own sign-in (HOSTED_USERS in a measurement). */
export type HostedPlan = ThroughputPlan & { readonly users: number };

function stop(child: ChildProcess): Promise<unknown> {
  if (child.exitCode !== null) return Promise.resolve();
  child.kill('SIGTERM');
  return once(child, 'exit');
}

/** One connection's whole sign-in: registration, both consents, the code exchange. */
async function signIn(base: string, user: string): Promise<string> {
  const registered = (await (
    await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'bench agent',
        redirect_uris: [CLIENT_REDIRECT],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      }),
    })
  ).json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(`${base}/oauth/authorize`);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: registered.client_id,
    redirect_uri: CLIENT_REDIRECT,
    scope: 'mcp',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'bench',
    resource: base,
  }).toString();
  const browser = new CookieBrowser();
  const { response, url: consentUrl } = await browser.follow(
    authorize,
    (next) => next.origin === new URL(base).origin && !next.href.startsWith(CLIENT_REDIRECT),
  );
  const csrf = hiddenInput(await response.text(), 'csrf_token');
  if (csrf === undefined) throw new Error(`no consent page at ${consentUrl.href}`);
  const toSchool = await browser.request(consentUrl, { form: { csrf_token: csrf, decision: 'allow' } });
  const callback = await completeConsent(toSchool.headers.get('location')!, 'allow', { user });
  const { url } = await browser.follow(callback, (next) => !next.href.startsWith(CLIENT_REDIRECT));
  const tokens = (await (
    await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: url.searchParams.get('code') ?? '',
        code_verifier: verifier,
        redirect_uri: CLIENT_REDIRECT,
        client_id: registered.client_id,
        resource: base,
      }),
    })
  ).json()) as { access_token?: string; error?: string };
  if (tokens.access_token === undefined) throw new Error(`no token: ${tokens.error}`);
  return tokens.access_token;
}

async function callOnce(client: Client): Promise<void> {
  const result = (await client.callTool({ ...READ_TOOL, arguments: { ...READ_TOOL.arguments } })) as {
    isError?: boolean;
    content?: { text?: string }[];
  };
  if (result.isError) throw new Error(`${READ_TOOL.name} failed: ${result.content?.[0]?.text ?? ''}`);
}

export async function measureHosted(
  plan: HostedPlan,
  scratch: string,
  progress: (line: string) => void,
): Promise<Measured<HostedCell>> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const sandbox = spawn(process.execPath, [SCHOOL_MCP_MAIN, 'sandbox', '--integration', `${base}/oauth/callback`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let hosted: ChildProcess | undefined;
  const clients: Client[] = [];
  try {
    const sandboxLog = collectLines(sandbox.stderr);
    const schoolUrl = /(http:\/\/\S+)/.exec(await sandboxLog.waitFor(/listening on http/, 20_000))![1]!;
    const clientId = /client id: +(\S+)/.exec(await sandboxLog.waitFor(/client id:/, 20_000))![1]!;
    const clientSecret = /client secret: +(\S+)/.exec(await sandboxLog.waitFor(/client secret:/, 20_000))![1]!;
    hosted = spawn(
      process.execPath,
      [
        SCHOOL_MCP_MAIN,
        '--hosted',
        '--public-url',
        base,
        '--school',
        schoolUrl,
        '--client-id',
        clientId,
        '--port',
        String(port),
        '--store',
        join(scratch, 'hosted-store'),
        '--registration-limit',
        '1000000',
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: {
          ...process.env,
          SCHOOL_MCP_CLIENT_SECRET: clientSecret,
          SCHOOL_MCP_STORE_KEY: randomBytes(32).toString('base64'),
        },
      },
    );
    const hostedLog = collectLines(hosted.stderr);
    await hostedLog.waitFor(/serving hosted/, 20_000);
    progress(`hosted: signing in ${plan.users} connections`);
    for (let index = 0; index < plan.users; index++) {
      const token = await signIn(base, SANDBOX_STAFF[index % SANDBOX_STAFF.length]!.sub);
      const client = new Client({ name: 'bench', version: '1.0.0' }, { capabilities: {} });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      clients.push(client);
    }
    const cell = await measureThroughput(clients, callOnce, plan, (round) =>
      progress(`hosted: round ${round + 1} of ${plan.rounds}`),
    );
    return { ok: true, value: cell };
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
    if (hosted) await stop(hosted);
    await stop(sandbox);
  }
}
