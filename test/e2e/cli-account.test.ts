/**
 * `school-mcp login --paste`, `status` and `logout` as a user runs them in a plain terminal: the
 * built CLI as a child process against the sandbox school over real HTTP.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeConsent, startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { MAIN_JS } from '../helpers/mcp-stdio.js';

let sandbox: RunningSandbox;
let configDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ autoApprove: true });
  configDir = await mkdtemp(join(tmpdir(), 'school-mcp-cli-'));
});

afterAll(async () => {
  await sandbox.close();
  await rm(configDir, { recursive: true, force: true });
});

function runCli(
  args: string[],
  answer?: (output: string) => Promise<string | undefined>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [MAIN_JS, ...args, '--school', sandbox.url, '--config-dir', configDir, '--no-browser'],
      {
        env: { PATH: process.env.PATH ?? '', HOME: configDir },
      },
    );
    let output = '';
    let answered = false;
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (answer && !answered && /\/oauth\/authorize\?/.test(output)) {
        answered = true;
        void answer(output).then((line) => (line === undefined ? child.stdin.end() : child.stdin.write(`${line}\n`)));
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('account commands in a terminal', () => {
  it('BR-04 login --paste signs in with the address pasted from the browser, then status shows it', async () => {
    const login = await runCli(['login', '--paste', '--scopes', 'courses:read orders:read'], async (output) => {
      const link = /(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/.exec(output)![1]!;
      return (await completeConsent(link, 'allow')).href;
    });
    expect(login.code, login.output).toBe(0);

    const status = await runCli(['status']);
    expect(status.code, status.output).toBe(0);
    expect(status.output).toContain('courses:read');
    expect(status.output).toContain('Ada Lovelace');
  });

  it('logout revokes at the school, and status then says signed out', async () => {
    const logout = await runCli(['logout']);
    expect(logout.code, logout.output).toBe(0);
    expect(sandbox.countRequests('/api/oauth/revoke', 'POST')).toBeGreaterThanOrEqual(1);
    const status = await runCli(['status']);
    expect(status.output).toMatch(/Signed in: +no/);
  });
});
