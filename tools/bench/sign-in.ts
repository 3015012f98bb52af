/**
 * Tokens for the run, obtained before any timing starts. The peers have no sign-in of their own,
 * so they are handed an access token the way their READMEs say (an environment variable, a
 * header); school-mcp signs in the way a user does, with `school-mcp login`, and the bench plays
 * the user who follows the printed link.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createHash, randomBytes } from 'node:crypto';
import { completeConsent } from '../../src/sandbox/index.js';
import { collectLines } from './child-lines.js';
import { SCHOOL_MCP_MAIN } from './paths.js';

/** A loopback redirect that nothing listens on: the sandbox redirects there and the bench reads the code from the URL. */
const REDIRECT_URI = 'http://127.0.0.1:9/callback';

/** Registers a public client, authorizes it (the sandbox auto-approves) and exchanges the code, with PKCE. */
export async function obtainAccessToken(schoolUrl: string, scopes: readonly string[]): Promise<string> {
  const registration = await fetch(`${schoolUrl}/api/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'school-mcp bench (peers)',
      application_type: 'native',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    }),
  });
  const clientId = String(((await registration.json()) as { client_id?: unknown }).client_id);
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const authorize = new URL(`${schoolUrl}/oauth/authorize`);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: scopes.join(' '),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state,
  }).toString();
  const callback = await completeConsent(authorize, 'allow');
  const code = callback.searchParams.get('code');
  if (code === null || callback.searchParams.get('state') !== state) throw new Error(`the sandbox did not grant a code: ${callback.search}`);
  const exchange = await fetch(`${schoolUrl}/api/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: clientId, code_verifier: verifier }),
  });
  const body = (await exchange.json()) as { access_token?: unknown };
  if (exchange.status !== 200 || typeof body.access_token !== 'string') throw new Error(`the token exchange failed (${exchange.status})`);
  return body.access_token;
}

/** `school-mcp login --scopes ...` into `configDir`, approving the link it prints. */
export async function signInSchoolMcp(schoolUrl: string, configDir: string, scopes: readonly string[]): Promise<void> {
  const child = spawn(
    process.execPath,
    [SCHOOL_MCP_MAIN, 'login', '--school', schoolUrl, '--config-dir', configDir, '--no-browser', '--scopes', scopes.join(' ')],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: process.env['PATH'] ?? '', HOME: configDir } },
  );
  const exited = once(child, 'exit');
  const log = collectLines(child.stderr);
  const line = await log.waitFor(/\/oauth\/authorize\?/, 20_000);
  const link = /(https?:\/\/\S+\/oauth\/authorize\?\S+)/.exec(line)![1]!;
  const callback = await completeConsent(link, 'allow');
  await (await fetch(callback)).text();
  const [code] = (await exited) as [number | null];
  if (code !== 0) throw new Error(`school-mcp login exited with ${code}:\n${log.lines.join('\n')}`);
}
