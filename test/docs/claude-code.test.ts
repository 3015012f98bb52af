/**
 * The docs' configs as Claude Code itself takes them: Claude Code from the npm registry (pinned,
 * in a folder of this test's own, from npm's cache when it is there), a home of its own with no
 * login, each published stdio config added with `claude mcp add` (the lines the pages give, as
 * written) or `claude mcp add-json` (the JSON entries), the HTTP entry for Claude Code against a
 * `--http` server, then `claude mcp list`, which starts each server and reports whether it
 * connected. Where Claude Code cannot be installed or run, the tests skip and say why.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { spawnHttpServer, type HttpProcess } from '../helpers/mcp-http.js';
import { claudeAddCommands, jsonEntries, runnable, type HttpEntry, type StdioEntry } from './host-config-blocks.js';

const run = promisify(execFile);
const shell = process.platform === 'win32';
const CLAUDE_CODE = '@anthropic-ai/claude-code@2.1.332';
const root = resolve(import.meta.dirname, '../..');

const pages = [
  'README.md',
  join('docs', 'install.md'),
  ...(await readdir(join(root, 'docs', 'hosts')))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', 'hosts', name)),
];
const texts = await Promise.all(pages.map(async (page) => readFile(join(root, page), 'utf8')));
const addLines = texts.flatMap((text) => claudeAddCommands(text));
const stdioEntries = texts
  .flatMap((text) => jsonEntries(text))
  .filter((entry): entry is StdioEntry => entry.kind === 'stdio');
const httpForClaudeCode = jsonEntries(texts[pages.indexOf(join('docs', 'hosts', 'http.md'))]!).find(
  (entry): entry is HttpEntry =>
    entry.kind === 'http' && Object.values(entry.headers).some((value) => value.includes('${SCHOOL_MCP_HTTP_SECRET}')),
);

/** `claude mcp list`'s verdict per server: `NAME: COMMAND - ✔ Connected` or `- ✘ Failed to connect…`. */
function verdicts(listing: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of listing.split('\n')) {
    const match = /^([\w-]+): .* - (✔ Connected|✘ .*)$/.exec(line.trim());
    if (match !== null) found.set(match[1]!, match[2]!);
  }
  return found;
}

/** The line of npm's or Claude Code's error output that says what went wrong. */
function lastLine(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('npm warn'));
  return lines.find((line) => /\bERR\b|error/i.test(line)) ?? lines.at(-1) ?? 'no output';
}

let prefix: string;
let home: string;
let claude: string;
let unavailable: string | undefined;
let sandbox: RunningSandbox;
let httpServer: HttpProcess;
const secret = 'claude-code-docs-check-0123456789';

beforeAll(async () => {
  // Claude Code's package declares Node 22 or newer, and this repository's .npmrc holds npm to engines.
  if (Number(process.versions.node.split('.')[0]) < 22) {
    unavailable = `Claude Code needs Node 22 or newer; this is Node ${process.versions.node}`;
    return;
  }
  prefix = await mkdtemp(join(tmpdir(), 'school-mcp-claude-code-'));
  home = await mkdtemp(join(tmpdir(), 'school-mcp-claude-home-'));
  claude = join(prefix, 'node_modules', '.bin', 'claude');
  await writeFile(join(prefix, 'package.json'), '{ "private": true }\n');
  try {
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', CLAUDE_CODE], {
      cwd: prefix,
      shell,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    unavailable = `Claude Code could not be installed from npm (${lastLine((error as { stderr?: string }).stderr ?? String(error))})`;
    return;
  }
  try {
    await run(claude, ['--version'], { cwd: home, env: { PATH: process.env.PATH ?? '', HOME: home } });
  } catch (error) {
    unavailable = `Claude Code does not run here (${lastLine((error as { stderr?: string }).stderr ?? String(error))})`;
    return;
  }
  sandbox = await startSandbox({});
  httpServer = await spawnHttpServer({ args: ['--demo'], secret });
}, 600_000);

afterAll(async () => {
  await httpServer?.close();
  await sandbox?.close();
  for (const folder of [prefix, home]) if (folder !== undefined) await rm(folder, { recursive: true, force: true });
});

describe('the docs configs in Claude Code', () => {
  it('are found in the pages', () => {
    expect(addLines.length).toBeGreaterThanOrEqual(3);
    expect(stdioEntries.length).toBeGreaterThanOrEqual(6);
    expect(httpForClaudeCode).toBeDefined();
  });

  it('connect, every one, in `claude mcp list` without a login; a broken one does not', async (context) => {
    if (unavailable !== undefined) context.skip(unavailable);
    const env = { PATH: process.env.PATH ?? '', HOME: home, SCHOOL_MCP_HTTP_SECRET: secret };
    const claudeMcp = (...args: string[]) => run(claude, ['mcp', ...args], { cwd: home, env });
    const places = { clone: root, school: sandbox.url.replace(/\/$/, '') };
    const expected: string[] = [];
    for (const [index, line] of addLines.entries()) {
      const { command, args } = runnable(line, places);
      await claudeMcp('add', `add-${index}`, '--', command, ...args);
      expected.push(`add-${index}`);
    }
    for (const [index, entry] of stdioEntries.entries()) {
      const { command, args } = runnable(entry, places);
      await claudeMcp('add-json', `json-${index}`, JSON.stringify({ type: 'stdio', command, args }));
      expected.push(`json-${index}`);
    }
    const endpoint = new URL(httpForClaudeCode!.url);
    endpoint.host = new URL(httpServer.url).host;
    await claudeMcp(
      'add-json',
      'http',
      JSON.stringify({ type: 'http', url: endpoint.href, headers: httpForClaudeCode!.headers }),
    );
    expected.push('http');
    await claudeMcp('add', 'broken', '--', 'node', join(root, 'dist', 'bin', 'no-such-file.js'));

    const listed = verdicts((await claudeMcp('list')).stdout);
    expect(Object.fromEntries(expected.map((name) => [name, listed.get(name)]))).toEqual(
      Object.fromEntries(expected.map((name) => [name, '✔ Connected'])),
    );
    expect(listed.get('broken')).toMatch(/^✘ Failed to connect/);
  }, 300_000);
});
