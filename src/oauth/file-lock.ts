/**
 * A cross-process lock: a file created with O_EXCL holding the owner's pid, a start time and a
 * random id. A lock whose process is gone, or that is older than its stale age, is taken over
 * (RF-02: a holder killed with SIGKILL must not block the others forever).
 */
import { randomUUID } from 'node:crypto';
import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { OAuthError } from './oauth-error.js';

/** A lock file younger than this may still be being written by its taker. */
const FRESH_LOCK_MS = 2_000;

export interface LockInfo {
  id: string;
  pid: number;
  at: number;
  /** What the holder is doing: shown to a waiting process (e.g. the consent URL). */
  note?: Record<string, unknown>;
}

export interface LockHandle {
  readonly info: LockInfo;
  /** Rewrites the note (the consent URL becomes known after the lock was taken). */
  annotate(note: Record<string, unknown>): Promise<void>;
  release(): Promise<void>;
}

export interface LockOptions {
  /** A lock older than this is considered abandoned. */
  staleMs: number;
  now: () => number;
  /** Liveness of a process id; injectable so tests can simulate a dead holder. */
  isAlive?: (pid: number) => boolean;
  /** Test seam: runs once a lock was judged stale, just before this process takes it over. */
  beforeTakeover?: () => Promise<void>;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function readLock(path: string): Promise<LockInfo | undefined> {
  try {
    const raw: unknown = JSON.parse(await readFile(path, 'utf8'));
    if (!isJsonObject(raw)) return undefined;
    const { id, pid, at, note } = raw;
    if (typeof id !== 'string' || typeof pid !== 'number' || typeof at !== 'number') return undefined;
    return { id, pid, at, ...(isJsonObject(note) ? { note } : {}) };
  } catch {
    return undefined;
  }
}

export function isStale(info: LockInfo | undefined, options: LockOptions): boolean {
  if (!info) return true;
  const alive = (options.isAlive ?? processIsAlive)(info.pid);
  return !alive || options.now() - info.at > options.staleMs;
}

/** One attempt; `undefined` when another live holder has it. */
export async function tryAcquireLock(
  path: string,
  options: LockOptions,
  note?: Record<string, unknown>,
): Promise<LockHandle | undefined> {
  const info: LockInfo = { id: randomUUID(), pid: process.pid, at: options.now(), ...(note ? { note } : {}) };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(path, 'wx', 0o600);
      try {
        await handle.writeFile(JSON.stringify(info));
        await handle.sync();
      } finally {
        await handle.close();
      }
      return lockHandle(path, info);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readLock(path);
    // A lock file being written right now has no content yet; give its writer a moment.
    if (!holder && (await fileAgeMs(path)) < FRESH_LOCK_MS) return undefined;
    if (!isStale(holder, options)) return undefined;
    await options.beforeTakeover?.();
    if (!(await removeIfStill(path, holder))) return undefined;
  }
  return undefined;
}

/**
 * Removes the lock at `path` only if it is still the one that was judged (`undefined`: a file
 * without valid content). Reading and then unlinking would let two takers that judged the same
 * lock each remove it, the second one removing the lock the first had just put in its place, so
 * both would win. Moving the file aside is atomic: only one taker gets the judged lock, and one
 * that got a newer lock puts it back where its holder expects it.
 */
async function removeIfStill(path: string, judged: LockInfo | undefined): Promise<boolean> {
  const aside = `${path}.${randomUUID()}.aside`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  const moved = await readLock(aside);
  const same =
    moved === undefined ? judged === undefined && (await fileAgeMs(aside)) >= FRESH_LOCK_MS : moved.id === judged?.id;
  if (!same) {
    // `link` never replaces: if yet another process locked meanwhile, its lock stays.
    await link(aside, path).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
  return same;
}

export async function acquireLock(
  path: string,
  options: LockOptions & { waitMs: number; pollMs?: number; signal?: AbortSignal; what: string },
  note?: Record<string, unknown>,
): Promise<LockHandle> {
  const deadline = options.now() + options.waitMs;
  for (;;) {
    options.signal?.throwIfAborted();
    const handle = await tryAcquireLock(path, options, note);
    if (handle) return handle;
    if (options.now() >= deadline) {
      throw new OAuthError('OAUTH_LOCK_TIMEOUT', `Another school-mcp process kept the ${options.what} lock too long.`, {
        hint: 'Another school-mcp process is busy with the same school; try again in a moment.',
      });
    }
    await sleep(options.pollMs ?? 50, undefined, options.signal ? { signal: options.signal } : undefined);
  }
}

/** Wall-clock age from the file system, independent of the injected clock. */
async function fileAgeMs(path: string): Promise<number> {
  try {
    return Date.now() - (await stat(path)).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function lockHandle(path: string, info: LockInfo): LockHandle {
  let current = info;
  return {
    get info() {
      return current;
    },
    async annotate(note) {
      const holder = await readLock(path);
      if (holder?.id !== current.id) return;
      current = { ...current, note };
      // Written in place: a reader that catches a partial write sees "no content yet" and waits.
      const handle = await open(path, 'r+');
      try {
        await handle.truncate(0);
        await handle.write(JSON.stringify(current), 0);
      } finally {
        await handle.close();
      }
    },
    async release() {
      // The lock may have been taken over (judged stale) since it was taken: remove only our own.
      await removeIfStill(path, current).catch(() => undefined);
    },
  };
}
