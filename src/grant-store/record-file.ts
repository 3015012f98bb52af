/**
 * The file operations of one record of the directory store: reading it after the checks of its
 * `lstat`, writing it atomically, replacing it only while it is unchanged, creating it only when
 * absent, and claiming it for a take. What each check means is decided in the pure files
 * (`record-file-check.ts`, `record-file-name.ts`); this file carries those answers out.
 */
import { randomBytes } from 'node:crypto';
import { chmod, link, open, rename, unlink } from 'node:fs/promises';
import { SchoolMcpError } from '../errors.js';
import type { Logger } from '../log.js';
import {
  inspectPrivateFile,
  readWithoutFollowingIfPresent,
  writePrivateFileAtomically,
} from '../private-files/index.js';
import { recordFileCheck } from './record-file-check.js';
import { scratchPathOf } from './record-file-name.js';
import { storeUnsafe, storeWriteFailed } from './store-errors.js';

/** Thrown inside a replacement to call it off: the record changed after it was read. */
const CHANGED_MEANWHILE = new Error('the record changed meanwhile');

const scratchTag = (): string => randomBytes(6).toString('hex');

const refusingToReplace = (path: string) => () =>
  storeUnsafe(`The grant store record ${path} is a symbolic link; refusing to replace it.`);

/** The file's text after the checks of its `lstat`; `undefined` when there is none. */
export async function readRecordFile(path: string, logger: Pick<Logger, 'warn'>): Promise<string | undefined> {
  const inspected = await inspectPrivateFile(path);
  if (inspected === undefined) return undefined;
  const check = recordFileCheck(inspected.verdict, inspected.info.size);
  if (check.kind === 'refuse') throw storeUnsafe(`The grant store record ${path} ${check.problem}.`);
  if (check.looseMode !== undefined) {
    logger.warn('a grant store record was readable by others; set to 0600', {
      file: path,
      mode: check.looseMode.toString(8),
    });
    await chmod(path, 0o600);
  }
  if (check.oversized) return '';
  return readWithoutFollowingIfPresent(path);
}

/** Moves a record file that did not open to `aside`, out of every reader's way, and says so. */
export async function setRecordAside(
  path: string,
  aside: string,
  reason: string,
  logger: Pick<Logger, 'warn'>,
): Promise<void> {
  await rename(path, aside).catch(() => undefined);
  logger.warn('a grant store record did not open and was set aside; its user signs in again', {
    reason,
    file: aside,
  });
}

/** Creates or replaces the record file with `text`; `what` names the record in a failure. */
export async function writeRecordFile(path: string, text: string, what: string): Promise<void> {
  try {
    await writePrivateFileAtomically(path, text, { unsafe: refusingToReplace(path) });
  } catch (error) {
    if (error instanceof SchoolMcpError) throw error;
    throw storeWriteFailed(what, error);
  }
}

/**
 * Replaces the record file with `next` only while it still holds `expected`, checked after the
 * new file is written and synced, just before the rename(2) that puts it in place. A POSIX
 * directory has no compare-and-swap of a file, so a writer whose own rename lands between that
 * check and this rename is overwritten: a window of two system calls, against the whole read,
 * open and seal it would otherwise be. Readers never see the record missing.
 */
export async function replaceRecordIfUnchanged(
  path: string,
  expected: string,
  next: string,
  logger: Pick<Logger, 'warn'>,
): Promise<boolean> {
  try {
    await writePrivateFileAtomically(path, next, {
      unsafe: refusingToReplace(path),
      beforeCommit: async () => {
        if ((await readRecordFile(path, logger)) !== expected) throw CHANGED_MEANWHILE;
      },
    });
    return true;
  } catch (error) {
    if (error === CHANGED_MEANWHILE) return false;
    if (error instanceof SchoolMcpError) throw error;
    throw storeWriteFailed('a resealed record', error);
  }
}

/**
 * Creates the record file with `text` unless a live record holds its name, and says whether it
 * did. `holdsLiveRecord` reads the record in the way; reading an expired or damaged one removes it
 * or sets it aside, and then the name is free once more.
 */
export async function createRecordFileIfAbsent(
  path: string,
  text: string,
  what: string,
  holdsLiveRecord: () => Promise<boolean>,
): Promise<boolean> {
  // link(2) fails with EEXIST when the name is taken, so of two creators one wins; the record
  // is complete before it has its name, so no reader sees half of it.
  const temp = scratchPathOf(path, scratchTag());
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        await link(temp, path);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if (await holdsLiveRecord()) return false;
      }
    }
    return false;
  } catch (error) {
    if (error instanceof SchoolMcpError) throw error;
    throw storeWriteFailed(what, error);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/**
 * Moves the record file out of its name and hands the moved file to `use`, then removes it;
 * `undefined` when there was none. rename(2) is atomic: of two takers, one moves the file and the
 * other finds nothing.
 */
export async function claimRecordFile<T>(
  path: string,
  what: string,
  use: (claimed: string) => Promise<T | undefined>,
): Promise<T | undefined> {
  const claimed = scratchPathOf(path, scratchTag());
  try {
    await rename(path, claimed);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw storeWriteFailed(what, error);
  }
  try {
    return await use(claimed);
  } finally {
    await unlink(claimed).catch(() => undefined);
  }
}
