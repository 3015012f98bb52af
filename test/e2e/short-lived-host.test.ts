/**
 * Hosts whose server does not outlive a call. The MCP Inspector CLI starts a fresh server for
 * each call and ends it after the answer, so a sign-in link, whose redirect returns to that
 * process, cannot complete: the result says so and offers `school-mcp login`, which does work.
 * A server whose stdin closes, or that is stopped, while a call waits for approval answers that
 * call first, saying the link ends with it.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeConsent, startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { MAIN_JS } from '../helpers/mcp-stdio.js';
import { initialize, spawnRaw, type RawServer } from '../helpers/raw-stdio.js';
import { startV1Server } from '../helpers/sdk-v1-client.js';

type Result = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

const textOf = (result: Result) => result.content.map((block) => block.text ?? '').join('\n');
const LINK = /(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/;

let sandbox: RunningSandbox;
const dirs: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ autoApprove: false });
});

afterAll(async () => {
  await sandbox.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'school-mcp-short-'));
  dirs.push(dir);
  return dir;
}

/** One call the way the Inspector CLI makes it: start a server, connect, call, close. */
async function callInFreshServer(configDir: string, name: string, args: Record<string, unknown>): Promise<Result> {
  const server = await startV1Server({
    transport: 'stdio',
    configDir,
    args: ['--school', sandbox.url, '--no-browser', '--toolsets', 'coupons'],
  });
  try {
    return (await server.client.callTool({ name, arguments: args })) as Result;
  } finally {
    await server.close();
  }
}

/** The words of a shell command line, quotes removed (the offered command quotes only plainly). */
function shellWords(command: string): string[] {
  return (command.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((word) => word.replace(/^(["'])(.*)\1$/, '$2'));
}

/** Runs `school-mcp login ...` as a user would, playing the user who approves the printed link. */
function runLogin(words: string[], configDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN_JS, ...words, '--no-browser'], {
      env: { PATH: process.env.PATH ?? '', HOME: configDir },
    });
    let output = '';
    let approving = false;
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const link = LINK.exec(output)?.[1];
      if (link !== undefined && !approving) {
        approving = true;
        void completeConsent(link, 'allow').then(async (callback) => (await fetch(callback)).text());
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

async function waitForLink(server: RawServer): Promise<void> {
  await expect.poll(() => server.stderr.some((line) => LINK.test(line)), { timeout: 90_000 }).toBe(true);
}

describe('a host that starts a server per call', () => {
  it('is told that the link needs the server that made it, and the offered `school-mcp login` signs in for the next server', async () => {
    const configDir = await freshDir();
    const coupon = { code: 'PER-CALL', discount_type: 'percent', percent_off: 5 };
    const first = await callInFreshServer(configDir, 'create_coupon', coupon);
    expect(first.isError).toBe(true);
    expect(textOf(first)).toContain('as long as this school-mcp process keeps running');
    expect(textOf(first)).toContain('starts a new school-mcp for every call');
    const link = LINK.exec(textOf(first))?.[1];
    expect(link, textOf(first)).toBeDefined();

    // The server that made the link is gone: the school's redirect back reaches nobody.
    const callback = await completeConsent(link!, 'allow');
    await expect(fetch(callback)).rejects.toThrow();

    const offered = /`(school-mcp login [^`]+)`/.exec(textOf(first))?.[1];
    expect(offered, textOf(first)).toContain(`--config-dir ${configDir}`);
    expect(offered).toContain('coupons:write');
    const login = await runLogin(shellWords(offered!).slice(1), configDir);
    expect(login.code, login.output).toBe(0);

    const second = await callInFreshServer(configDir, 'create_coupon', coupon);
    expect(second.isError, textOf(second)).toBeFalsy();
    expect(second.structuredContent?.['code']).toBe(coupon.code);
  });
});

describe('a server going away while a call waits for approval', () => {
  it.each([
    ['stdin closes', (server: RawServer) => server.child.stdin.end(), 'the host closed its connection'],
    ['it is sent SIGTERM', (server: RawServer) => server.child.kill('SIGTERM'), 'it was asked to stop'],
  ] as const)(
    'STDIO-06 answers the waiting call when %s: the link ends with it, and `school-mcp login` is offered',
    async (_, goAway, why) => {
      const server = spawnRaw(await freshDir(), [
        '--school',
        sandbox.url,
        '--no-browser',
        '--toolsets',
        'coupons',
        '--consent-wait',
        '30',
        '--link-wait',
        '30',
      ]);
      await initialize(server);
      await server.nextMessage();
      server.writeLine(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'list_coupons', arguments: {} },
        }),
      );
      await waitForLink(server);
      goAway(server);
      const answer = (await server.nextMessage()) as { id: number; result: Result };
      expect(answer.id).toBe(2);
      expect(textOf(answer.result)).toContain(why);
      expect(textOf(answer.result)).toContain('no longer works');
      expect(textOf(answer.result)).toContain(`school-mcp login --school ${sandbox.url}`);
      expect(textOf(answer.result)).not.toContain('it continues');
      expect(await server.exited).toBe(0);
    },
  );
});
