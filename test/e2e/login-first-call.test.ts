/**
 * `school-mcp login` with no `--scopes` asks for what the first call will need under the consent
 * policy (the reads of the enabled toolsets), so that a host which starts a server per call, and
 * so can never finish a sign-in itself, works after that one command: its server finds the grant
 * and calls without asking.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeConsent, startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { MAIN_JS, startStdioServer } from '../helpers/mcp-stdio.js';

let sandbox: RunningSandbox;
let configDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ autoApprove: true });
  configDir = await mkdtemp(join(tmpdir(), 'school-mcp-login-'));
});

afterAll(async () => {
  await sandbox.close();
  await rm(configDir, { recursive: true, force: true });
});

/** `school-mcp login`, with the played user approving the link it prints. */
function login(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [MAIN_JS, 'login', '--school', sandbox.url, '--config-dir', configDir, '--no-browser'],
      {
        env: { PATH: process.env.PATH ?? '', HOME: configDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    let approved = false;
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const link = /(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/.exec(output)?.[1];
      if (link !== undefined && !approved) {
        approved = true;
        void completeConsent(link, 'allow').then(async (callback) => (await fetch(callback)).text());
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('login for a host that starts a server per call', () => {
  it('asks for the reads of the enabled toolsets, and a fresh server then calls without asking', async () => {
    const signedIn = await login();
    expect(signedIn.code, signedIn.output).toBe(0);
    const asked = new URL(/(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/.exec(signedIn.output)![1]!).searchParams
      .get('scope')!
      .split(' ');
    expect(asked).toEqual(expect.arrayContaining(['openid', 'profile', 'courses:read']));
    expect(asked.filter((scope) => scope.endsWith(':write'))).toEqual([]);

    // One server for one call, as a per-call host starts it: no link, no wait.
    const server = await startStdioServer({
      configDir,
      args: ['--school', sandbox.url, '--no-browser', '--consent-wait', '2'],
    });
    try {
      const result = (await server.client.callTool({ name: 'list_courses', arguments: { per_page: 1 } })) as {
        isError?: boolean;
        content: { text?: string }[];
      };
      expect(result.isError, result.content[0]?.text).not.toBe(true);
      expect(server.stderr.join('\n')).not.toMatch(/\/oauth\/authorize\?/);
    } finally {
      await server.close();
    }
  });
});
