/**
 * The pure rules of the store's locks and fenced writes. A lock hands its holder a fence: a number
 * greater than every fence handed out before for that record. A fenced write carries it, and the
 * store refuses it when a write with a greater fence already landed, so a holder whose lock ran
 * out while it worked (a pause, a slow school) cannot overwrite what the next holder saved
 * (the fencing token of Kleppmann's "How to do distributed locking").
 */

export interface LockOptions {
  /** How long the lock holds without a release; a holder that dies frees it after this. */
  readonly ttlMs: number;
}

export interface StoreLock {
  /** Greater than every fence handed out before for this record. */
  readonly fence: number;
  /** Gives the lock up; nothing happens when it already ran out or another holder took it since. */
  release(): Promise<void>;
}

/** Pure: whether a fenced write may land on a record that the write with `lastWritten` left. */
export function fenceAccepts(lastWritten: number | undefined, fence: number): boolean {
  return lastWritten === undefined || fence >= lastWritten;
}

/**
 * Pure: the fence after `issued`, the greatest handed out so far, and `lastWritten`, the fence the
 * record carries: a counter that was lost (it expired, or the lock files were cleared) restarts
 * above what the record already holds, so a new holder's writes are never refused.
 */
export function nextFence(issued: number, lastWritten: number | undefined): number {
  return Math.max(issued, lastWritten ?? 0) + 1;
}

/** Pure: whether a value is a fence (a positive safe integer). */
export function isFence(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

export function checkLockOptions(options: LockOptions): void {
  if (!Number.isSafeInteger(options.ttlMs) || options.ttlMs <= 0)
    throw new RangeError(`a lock's ttlMs must be a positive integer, got ${options.ttlMs}`);
}

export function checkFence(fence: number): void {
  if (!isFence(fence)) throw new RangeError(`a fence must be a positive integer, got ${String(fence)}`);
}
