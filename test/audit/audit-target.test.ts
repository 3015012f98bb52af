import { mkdtemp, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAuditTarget, type AuditEvent } from '../../src/audit/index.js';

let dir: string;
const failures: string[] = [];
const options = {
  onFailure: (message: string) => failures.push(message),
  now: () => new Date(Date.UTC(2026, 10, 28, 9, 0, 0)),
};
const event = (n: number): AuditEvent => ({
  event: 'tool_call',
  outcome: 'ok',
  tool: `tool_${n}`,
  sub: 'usr_ada',
  clientId: 'client-1',
});
const linesOf = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'school-mcp-audit-'));
  failures.length = 0;
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the audit log file', () => {
  it('LOG-05 is created 0600 whatever the umask, appended to (never truncated), one line per event', async () => {
    const path = join(dir, 'audit.jsonl');
    await writeFile(path, '{"earlier":true}\n', { mode: 0o600 });
    const previous = process.umask(0o000);
    const created = join(dir, 'new.jsonl');
    try {
      const fresh = await openAuditTarget(created, options);
      await fresh.close();
    } finally {
      process.umask(previous);
    }
    expect((await stat(created)).mode & 0o777).toBe(0o600);
    const audit = await openAuditTarget(path, options);
    for (let n = 0; n < 50; n++) audit.record(event(n));
    await audit.close();
    const lines = await linesOf(path);
    expect(lines[0]).toEqual({ earlier: true });
    expect(lines.slice(1).map((line) => line['tool'])).toEqual(Array.from({ length: 50 }, (_, n) => `tool_${n}`));
  });

  it('LOG-05 refuses a symbolic link planted at its path', async () => {
    const target = join(dir, 'elsewhere');
    await writeFile(target, '');
    await symlink(target, join(dir, 'audit.jsonl'));
    await expect(openAuditTarget(join(dir, 'audit.jsonl'), options)).rejects.toThrow(/ELOOP|symbolic/);
  });

  it('LOG-05 reopens its path when asked (SIGHUP after logrotate): later lines go to the new file, none is lost', async () => {
    const path = join(dir, 'audit.jsonl');
    const audit = await openAuditTarget(path, options);
    audit.record(event(1));
    audit.record(event(2));
    await rename(path, `${path}.1`);
    audit.record(event(3));
    audit.reopen();
    audit.record(event(4));
    await audit.close();
    const rotated = (await linesOf(`${path}.1`)).map((line) => line['tool']);
    const current = (await linesOf(path)).map((line) => line['tool']);
    expect([...rotated, ...current].map(String).sort((a, b) => a.localeCompare(b))).toEqual([
      'tool_1',
      'tool_2',
      'tool_3',
      'tool_4',
    ]);
    expect(current).toContain('tool_4');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('LOG-06 never holds the caller: past the queue, lines are dropped and the next line written says how many', async () => {
    const path = join(dir, 'audit.jsonl');
    const audit = await openAuditTarget(path, { ...options, maxQueuedLines: 3 });
    // All in one turn: the first line is being written, three wait, six find the queue full.
    for (let n = 1; n <= 10; n++) audit.record(event(n));
    await audit.close();
    const lines = await linesOf(path);
    expect(
      lines.map((line) => (line['event'] === 'audit_gap' ? `gap ${String(line['dropped'])}` : line['tool'])),
    ).toEqual(['tool_1', 'gap 6', 'tool_2', 'tool_3', 'tool_4']);
  });

  it.skipIf(process.platform !== 'linux')(
    'LOG-06 reports a failing disk once and never throws at the caller',
    async () => {
      const audit = await openAuditTarget('/dev/full', options);
      for (let n = 0; n < 20; n++) expect(() => audit.record(event(n))).not.toThrow();
      await audit.close();
      expect(failures).toEqual(['cannot write to the audit log; lines are being lost until a write succeeds']);
    },
  );

  it('writes to stderr with -', async () => {
    const written: string[] = [];
    const audit = await openAuditTarget('-', { ...options, stderr: (line) => written.push(line) });
    audit.record(event(1));
    await audit.close();
    expect(audit.description).toBe('stderr');
    expect(written).toEqual([
      '{"v":1,"time":"2026-11-28T09:00:00.000Z","event":"tool_call","outcome":"ok","sub":"usr_ada","client_id":"client-1","tool":"tool_1"}\n',
    ]);
  });
});
