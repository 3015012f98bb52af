/**
 * Real processes on one store directory race for one lock, after a process that died holding it:
 * never two inside at once, no increment lost, and the dead holder's lock runs out. The grant
 * store is compiled on its own first, so the children run plain Node.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDirectoryStore, parseStoreKeys } from '../../src/grant-store/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const built = join(root, 'node_modules', '.cache', `school-mcp-lock-test-${process.pid}`);
const child = fileURLToPath(new URL('./support/lock-child.mjs', import.meta.url));
const PROCESSES = 4;
const ROUNDS = 15;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'school-mcp-lock-processes-'));
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  const result = spawnSync(
    tsc,
    ['--ignoreConfig', '--outDir', built, '--rootDir', root, '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck', '--types', 'node', '--lib', 'es2023', '--declaration', 'false', 'src/grant-store/index.ts'],
    { cwd: root, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`compiling src/grant-store failed: ${result.stdout}${result.stderr}`);
}, 120_000);
afterAll(async () => {
  await rm(built, { recursive: true, force: true });
  await rm(dir, { recursive: true, force: true });
});

function run(key: string, mode: 'abandon' | 'count', count: number): Promise<Record<string, unknown>> {
  const process = spawn('node', [child, built, dir, key, mode, String(count)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: Record<string, unknown>[] = [];
  createInterface({ input: process.stdout }).on('line', (line) => lines.push(JSON.parse(line) as Record<string, unknown>));
  return new Promise((resolve, reject) => {
    process.on('error', reject);
    process.on('close', () => resolve(lines.at(-1) ?? { error: 'no answer' }));
  });
}

describe('the directory store lock across processes', () => {
  it(`SCL-10 lets ${PROCESSES} processes take one lock in turn after a holder died with it: never two inside, no write lost`, async () => {
    const key = randomBytes(32).toString('base64');
    expect(await run(key, 'abandon', 1500)).toEqual({ abandoned: 1 });
    const answers = await Promise.all(Array.from({ length: PROCESSES }, () => run(key, 'count', ROUNDS)));
    expect(answers).toEqual(Array.from({ length: PROCESSES }, () => ({ done: ROUNDS })));
    const parsed = parseStoreKeys(key);
    if (!parsed.ok) throw new Error(parsed.reason);
    const store = await openDirectoryStore({ dir: join(dir, 'store'), keyring: parsed.keyring, logger: { warn: () => undefined } });
    expect(await store.read('counter', 'shared')).toEqual({ count: PROCESSES * ROUNDS });
  }, 120_000);
});
