/**
 * Locks of the directory store, safe for several processes on one directory without a lock
 * server. A record's lock is a directory `<record file>.lock` of fence files named `1`, `2`, …:
 * taking the lock is creating the next number, and a file appears only whole and only once
 * (`link(2)` of a written temporary file fails when the name exists), so of two processes that
 * both saw the top fence run out, one creates the next and the other finds it there. The holder is
 * the top fence while it has not run out or been released; nobody ever deletes or breaks a stale
 * lock (the race that makes "remove it if it is stale" unsafe), the next fence supersedes it.
 */
import { randomBytes } from 'node:crypto';
import { link, readdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log.js';
import {
  preparePrivateDirectory,
  readWithoutFollowingIfPresent,
  writePrivateFileAtomically,
} from '../private-files/index.js';
import { nextFence, type LockOptions, type StoreLock } from './fencing.js';
import { isFiniteNumber, isObject } from './record-shape.js';
import { storeUnsafe, storeWriteFailed } from './store-errors.js';

/** Fences this far below the top are removed by the next holder; a few stay for the rare process acting on an old listing. */
const FENCES_KEPT = 16;

interface FenceHolder {
  readonly owner: string;
  /** Milliseconds since the epoch; 0 once released. */
  readonly expiresAtMs: number;
}

/** Pure: the fence numbers among a lock directory's entries, ascending. */
export function fencesIn(entries: readonly string[]): number[] {
  return entries
    .filter((entry) => /^[1-9][0-9]{0,14}$/.test(entry))
    .map(Number)
    .sort((a, b) => a - b);
}

/** Pure: whether the holder of the top fence, as its file reads, still has the lock. */
export function stillHeld(text: string | undefined, nowMs: number): boolean {
  if (text === undefined) return false;
  try {
    const holder: unknown = JSON.parse(text);
    return isObject(holder) && isFiniteNumber(holder['expiresAtMs']) && holder['expiresAtMs'] > nowMs;
  } catch {
    // Fence files appear whole (link of a written file); anything else is not a live lock.
    return false;
  }
}

export interface DirectoryLockContext {
  readonly logger: Pick<Logger, 'warn'>;
  /** The lock directory of the record: next to its file, in its namespace's directory. */
  readonly lockDir: string;
  /** The fence the record carries now, if any. */
  readonly writtenFence: () => Promise<number | undefined>;
  readonly nowMs: () => number;
}

export async function takeDirectoryLock(
  context: DirectoryLockContext,
  options: LockOptions,
): Promise<StoreLock | undefined> {
  const { lockDir, nowMs } = context;
  await preparePrivateDirectory(lockDir, {
    logger: context.logger,
    what: 'grant store lock directory',
    unsafe: storeUnsafe,
  });
  const written = await context.writtenFence();
  const top = fencesIn(await readdir(lockDir)).at(-1) ?? 0;
  // A record written with a fence above every file (the lock directory was cleared) has no live holder here.
  if (
    top > 0 &&
    (written ?? 0) <= top &&
    stillHeld(await readWithoutFollowingIfPresent(join(lockDir, String(top))), nowMs())
  )
    return undefined;

  const fence = nextFence(top, written);
  const owner = randomBytes(16).toString('base64url');
  const path = join(lockDir, String(fence));
  const temp = join(lockDir, `${owner}.tmp`);
  try {
    await writeFile(temp, JSON.stringify({ owner, expiresAtMs: nowMs() + options.ttlMs } satisfies FenceHolder), {
      flag: 'wx',
      mode: 0o600,
    });
    await link(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw storeWriteFailed('a lock', error);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  // A process acting on an old listing can only create a number below the top; the top one holds.
  const after = fencesIn(await readdir(lockDir));
  if (after.at(-1) !== fence) {
    await unlink(path).catch(() => undefined);
    return undefined;
  }
  for (const old of after)
    if (old < fence - FENCES_KEPT) await unlink(join(lockDir, String(old))).catch(() => undefined);

  return {
    fence,
    async release() {
      // Rewritten, not removed: the number stays taken, so the next fence is still greater.
      await writePrivateFileAtomically(path, JSON.stringify({ owner, expiresAtMs: 0 } satisfies FenceHolder), {
        unsafe: () => storeUnsafe(`The grant store lock ${path} is a symbolic link; refusing to replace it.`),
      }).catch((error: unknown) => {
        throw storeWriteFailed('the release of a lock', error);
      });
    },
  };
}
