/**
 * The cross-process lock's takeover of an abandoned lock, and its release: neither may be won,
 * or done, on behalf of a lock that replaced the one that was judged.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLock, tryAcquireLock, type LockOptions } from '../../src/oauth/file-lock.js';

const DEAD_PID = 999_999_999;

/**
 * Two takers that both judged the lock abandoned; the second acts only once the first has put its
 * own lock in place. This is the interleaving in which both used to win.
 */
function secondActsAfterFirstTookOver(path: string): () => Promise<void> {
  let arrived = 0;
  let bothJudged!: () => void;
  const judged = new Promise<void>((resolve) => (bothJudged = resolve));
  return async () => {
    arrived += 1;
    const order = arrived;
    if (arrived === 2) bothJudged();
    await judged;
    if (order === 1) return;
    for (;;) {
      const holder = await readLock(path);
      if (holder !== undefined && holder.id !== 'abandoned') return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
}

describe('file lock', () => {
  let dir: string;
  let path: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'school-mcp-lock-'));
    path = join(dir, 'consent.lock');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const abandoned = () => writeFile(path, JSON.stringify({ id: 'abandoned', pid: DEAD_PID, at: Date.now() }));

  it('RF-02 two takers that both judged the same lock abandoned: exactly one of them gets it', async () => {
    await abandoned();
    const options: LockOptions = { staleMs: 30_000, now: Date.now, beforeTakeover: secondActsAfterFirstTookOver(path) };
    const handles = await Promise.all([tryAcquireLock(path, options), tryAcquireLock(path, options)]);
    const winners = handles.filter((handle) => handle !== undefined);
    expect(winners).toHaveLength(1);
    expect((await readLock(path))?.id).toBe(winners[0]?.info.id);
  });

  it('RF-02 a lock taken over from an abandoned holder belongs to the new holder, and its release removes it', async () => {
    await abandoned();
    const handle = await tryAcquireLock(path, { staleMs: 30_000, now: Date.now });
    expect(handle?.info.pid).toBe(process.pid);
    await handle?.release();
    await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('RF-02 a holder whose lock was taken over does not release the lock of the new holder', async () => {
    const first = await tryAcquireLock(path, { staleMs: 30_000, now: Date.now });
    // The first holder looks dead to the second process, which takes over.
    const second = await tryAcquireLock(path, { staleMs: 30_000, now: Date.now, isAlive: () => false });
    expect(second).toBeDefined();
    await first?.release();
    expect((await readLock(path))?.id).toBe(second?.info.id);
  });
});
