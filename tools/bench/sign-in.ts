/**
 * Tokens for the run, obtained before any timing starts. The peers have no sign-in of their own,
 * so they are handed an access token the way their READMEs say (an environment variable, a
 * header); school-mcp signs in the way a user does, with `school-mcp login`, and the bench plays
 * the user who follows the printed link.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { completeConsent, obtainSandboxTokens } from '@school-mcp/sandbox';
import { collectLines } from './child-lines.js';
import { SCHOOL_MCP_MAIN } from './paths.js';

/** Registers a public client, authorizes it (the sandbox auto-approves) and exchanges the code, with PKCE. */
export async function obtainAccessToken(schoolUrl: string, scopes: readonly string[]): Promise<string> {
  return (await obtainSandboxTokens(schoolUrl, scopes)).accessToken;
}

/** `school-mcp login --scopes ...` into `configDir`, approving the link it prints. */
export async function signInSchoolMcp(schoolUrl: string, configDir: string, scopes: readonly string[]): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      SCHOOL_MCP_MAIN,
      'login',
      '--school',
      schoolUrl,
      '--config-dir',
      configDir,
      '--no-browser',
      '--scopes',
      scopes.join(' '),
    ],
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
