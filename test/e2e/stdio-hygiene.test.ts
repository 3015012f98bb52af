/**
 * The stdio transport's hygiene, checked on the raw child process rather than through a client
 * that might tolerate noise: stdout carries JSON-RPC only, a pending sign-in does not hang the
 * agent, closing stdin ends the process, and input that is not a message is answered.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { initialize, spawnRaw as spawnRawIn } from '../helpers/raw-stdio.js';

let sandbox: RunningSandbox;
let configDir: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  configDir = await mkdtemp(join(tmpdir(), 'school-mcp-hygiene-'));
});

afterAll(async () => {
  await sandbox.close();
  await rm(configDir, { recursive: true, force: true });
});

const spawnRaw = (args: string[], env: Record<string, string> = {}) => spawnRawIn(configDir, args, env);

describe('stdio hygiene', () => {
  it('STDIO-01 and STDIO-04: stdout is JSON-RPC only, and a call that needs sign-in answers within the wait with the link', async () => {
    const server = spawnRaw(['--school', sandbox.url, '--no-browser', '--consent-wait', '1']);
    await initialize(server);
    const listed = await server.request(2, 'tools/list');
    expect(listed['result']['tools'].length).toBeGreaterThan(5);
    const answer = await server.request(3, 'tools/call', { name: 'list_orders', arguments: {} });
    const text = answer['result']['content'].map((block: { text: string }) => block.text).join(' ');
    expect(text).toContain(`${sandbox.url}/oauth/authorize?`);
    server.child.stdin.end();
    await server.exited;
    expect(server.stdout.length).toBeGreaterThanOrEqual(3);
    for (const line of server.stdout.filter((line) => line.length > 0)) {
      expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    }
    // The link and the logs went to stderr.
    expect(server.stderr.join('\n')).toContain('/oauth/authorize?');
  });

  it('STDIO-03: closing stdin during a pending sign-in ends the process, and no token was stored', async () => {
    const server = spawnRaw(['--school', sandbox.url, '--no-browser', '--consent-wait', '30']);
    await initialize(server);
    const pending = server.request(2, 'tools/call', { name: 'list_orders', arguments: {} });
    void pending;
    await new Promise<void>((resolve) => {
      const check = () =>
        server.stderr.some((line) => line.includes('/oauth/authorize?')) ? resolve() : setTimeout(check, 20);
      check();
    });
    server.child.stdin.end();
    // Well under the 30 s consent wait, so an exit only after the wait ends still counts as hung.
    const code = await Promise.race([
      server.exited,
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 20_000)),
    ]);
    expect(code).not.toBe('hung');
    const stores = (await readdir(configDir)).filter((file) => /^tokens-[0-9a-f]+\.json$/.test(file));
    for (const store of stores) {
      // The registration may be kept for next time; tokens cannot exist without an approval.
      expect(JSON.parse(await readFile(join(configDir, store), 'utf8'))).not.toHaveProperty('tokens');
    }
  });

  it('writes usage to stdout for --help and a clear error with a code for a bad flag', async () => {
    const help = spawnRaw(['--help']);
    expect(await help.exited).toBe(0);
    expect(help.stdout.join('\n')).toContain('school-mcp --school URL');
    const bad = spawnRaw(['--school', 'http://evil.example']);
    expect(await bad.exited).toBe(2);
    expect(bad.stdout.join('')).toBe('');
    expect(bad.stderr.join('\n')).toMatch(/https.*\[CONFIG_INVALID\]/s);
  });

  it('NET-06 says loudly on stderr when TLS verification was turned off in the environment', async () => {
    const server = spawnRaw(['--version'], { NODE_TLS_REJECT_UNAUTHORIZED: '0' });
    expect(await server.exited).toBe(0);
    expect(server.stderr.join('\n')).toMatch(/NODE_TLS_REJECT_UNAUTHORIZED=0 .*NOT being verified/);
    expect(server.stdout.join('')).toMatch(/^\d+\.\d+\.\d+$/);
  });
  it('STDIO-05 answers invalid JSON with -32700 and an invalid request with -32600, keeps stdout clean and keeps serving', async () => {
    const server = spawnRaw(['--school', sandbox.url, '--no-browser']);
    await initialize(server);
    await server.nextMessage(); // the initialize result

    server.writeLine('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(await server.nextMessage()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    server.writeLine('{"id": 7, "method": "tools/list"}');
    expect(await server.nextMessage()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600 } });
    server.writeLine('{"jsonrpc": "2.0", "id": 8}');
    expect(await server.nextMessage()).toMatchObject({ id: 8, error: { code: -32600 } });
    server.writeLine('42');
    expect(await server.nextMessage()).toMatchObject({ id: null, error: { code: -32600 } });
    // 2025-11-25 has no batches: the array is one invalid request, and nothing in it runs.
    server.writeLine(JSON.stringify([{ jsonrpc: '2.0', id: 9, method: 'tools/list' }]));
    expect(await server.nextMessage()).toMatchObject({
      id: null,
      error: { code: -32600, message: expect.stringContaining('2025-11-25') },
    });

    const listed = await server.request(10, 'tools/list');
    expect(listed['result']['tools'].length).toBeGreaterThan(5);
    server.child.stdin.end();
    await server.exited;
    for (const line of server.stdout.filter((line) => line.length > 0))
      expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(server.stdout.some((line) => line.includes('"id":9,"result"'))).toBe(false);
  });

  it('STDIO-05 answers a batch with one array on 2025-03-26, the only revision that defines batches, and refuses it on 2024-11-05', async () => {
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 11, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { id: 12, method: 'ping' },
      { jsonrpc: '2.0', id: 13, method: 'tools/list' },
    ]);
    const batching = spawnRaw(['--school', sandbox.url, '--no-browser']);
    await initialize(batching, '2025-03-26');
    expect(await batching.nextMessage()).toMatchObject({ id: 1, result: { protocolVersion: '2025-03-26' } });
    batching.writeLine(batch);
    const answers = (await batching.nextMessage()) as Record<string, any>[];
    expect(Array.isArray(answers)).toBe(true);
    // Numbers: sort() without a compare function would order 100 before 11.
    expect(answers.map((answer) => answer['id'] as number).sort((a, b) => a - b)).toEqual([11, 12, 13]);
    expect(answers.find((answer) => answer['id'] === 12)).toMatchObject({ error: { code: -32600 } });
    expect(answers.find((answer) => answer['id'] === 13)?.['result']['tools'].length).toBeGreaterThan(5);
    batching.child.stdin.end();

    const older = spawnRaw(['--school', sandbox.url, '--no-browser']);
    await initialize(older, '2024-11-05');
    expect(await older.nextMessage()).toMatchObject({ id: 1, result: { protocolVersion: '2024-11-05' } });
    older.writeLine(batch);
    expect(await older.nextMessage()).toMatchObject({ id: null, error: { code: -32600 } });
    older.child.stdin.end();
    await Promise.all([batching.exited, older.exited]);
  });
});
