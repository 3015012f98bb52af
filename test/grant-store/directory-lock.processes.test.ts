/**
 * Real processes on one store directory race for one lock, after a process that died holding it:
 * never two inside at once, no increment lost, and the dead holder's lock runs out. The children
 * run the built grant store (`dist/`, from `npm run build`) in plain Node.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDirectoryStore, parseStoreKeys } from '../../src/grant-store/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** `npm run build`'s output (pretest): the children run the built store in plain Node. */
const built = join(root, 'dist');
const child = fileURLToPath(new URL('./support/lock-child.mjs', import.meta.url));
const PROCESSES = 4;
const ROUNDS = 15;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'school-mcp-lock-processes-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function run(key: string, mode: 'abandon' | 'count', count: number): Promise<Record<string, unknown>> {
  const process = spawn('node', [child, built, dir, key, mode, String(count)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Record<string, unknown>[] = [];
  createInterface({ input: process.stdout }).on('line', (line) =>
    lines.push(JSON.parse(line) as Record<string, unknown>),
  );
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
    const store = await openDirectoryStore({
      dir: join(dir, 'store'),
      keyring: parsed.keyring,
      logger: { warn: () => undefined },
    });
    expect(await store.read('counter', 'shared')).toEqual({ count: PROCESSES * ROUNDS });
  }, 120_000);
});
