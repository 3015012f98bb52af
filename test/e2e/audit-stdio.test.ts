/**
 * The audit log is hosted mode's: a stdio server given SCHOOL_MCP_AUDIT_LOG writes no audit line
 * anywhere, and its stdout stays JSON-RPC only.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { initialize, spawnRaw } from '../helpers/raw-stdio.js';

let sandbox: RunningSandbox;
let configDir: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  configDir = await mkdtemp(join(tmpdir(), 'school-mcp-audit-stdio-'));
});

afterAll(async () => {
  await sandbox.close();
  await rm(configDir, { recursive: true, force: true });
});

const isAuditLine = (line: string) =>
  /^\{"v":\d+,"time":/.test(line) || /"event":"(tool_call|sign_in|consent|access)"/.test(line);

describe('the audit log in stdio mode', () => {
  it.each(['-', 'audit.jsonl'])(
    'HOST-58 stays out of a stdio server told SCHOOL_MCP_AUDIT_LOG=%s: stdout is JSON-RPC only, and no audit line is written',
    async (target) => {
      const server = spawnRaw(configDir, ['--school', sandbox.url, '--no-browser', '--consent-wait', '1'], {
        SCHOOL_MCP_AUDIT_LOG: target === '-' ? '-' : join(configDir, target),
      });
      await initialize(server);
      expect((await server.request(2, 'tools/list'))['result']['tools'].length).toBeGreaterThan(5);
      const answer = await server.request(3, 'tools/call', { name: 'list_orders', arguments: {} });
      expect(JSON.stringify(answer['result'])).toContain('/oauth/authorize?');
      server.child.stdin.end();
      await server.exited;
      for (const line of server.stdout.filter((line) => line.length > 0))
        expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
      expect([...server.stdout, ...server.stderr].filter(isAuditLine)).toEqual([]);
      expect(await readdir(configDir)).not.toContain('audit.jsonl');
    },
  );
});
