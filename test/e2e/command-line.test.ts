/**
 * The command line as a user meets it: the built `school-mcp` as a child process, its exit codes
 * (0, and 2 for a command line that cannot run as written), each command's own help, and an
 * unknown command named as such.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS } from '../helpers/mcp-stdio.js';

let home: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'school-mcp-cli-'));
});

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

function run(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MAIN_JS, ...args],
      { env: { PATH: process.env.PATH ?? '', HOME: home } },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      },
    );
  });
}

describe('school-mcp on the command line', () => {
  it('prints the help of the command it follows on stdout, and exits 0', async () => {
    const program = await run(['--help']);
    expect(program).toMatchObject({ code: 0, stderr: '' });
    expect(program.stdout).toContain('school-mcp tools [--school URL | --openapi FILE]');
    expect(program.stdout).toContain('--http-secret-file F');

    const login = await run(['login', '--help']);
    expect(login.code).toBe(0);
    expect(login.stdout).toMatch(/^usage:\n {2}school-mcp login \[--scopes "a b"\]/);
    expect(login.stdout).toContain('--paste');
    expect(login.stdout).not.toContain('--http-secret');

    const sandbox = await run(['sandbox', '-h']);
    expect(sandbox.code).toBe(0);
    expect(sandbox.stdout).toContain('school-mcp sandbox [--port N] [--auto-approve] [--data FILE]');
    expect(sandbox.stdout).toContain('--auto-approve');
  });

  it.each([
    [['foo'], /unknown command "foo"; the commands are login, logout, status, tools, sandbox/],
    [['--school', 'https://school.example', 'extra'], /school-mcp takes no argument "extra"/],
    [
      ['sandbox', '--bogus'],
      /Unknown option --bogus for school-mcp sandbox\n {2}run `school-mcp sandbox --help` for the options/,
    ],
    [['sandbox', '--port', 'http'], /--port must be a port number/],
    [['login', '--http'], /--http goes with serving only/],
    [['tools'], /give its document with --openapi FILE/],
    [['--demo', '--consent-wait', '0'], /--consent-wait must be a number of seconds/],
    [['--demo', '--http', '--http-secret-file', 'no-such-file'], /cannot read the file given to --http-secret-file/],
  ])('exits 2 with a usage error on stderr and nothing on stdout for %j', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('[CONFIG_INVALID]');
  });

  it('exits 1, not 2, when a well-formed command fails', async () => {
    const result = await run(['tools', '--openapi', join(home, 'no-such-document.yaml')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[OPENAPI_FILE_UNREADABLE]');
  });
});
