/**
 * The config directory and the files in it, on disk: the token store and the OpenAPI cache both
 * go through here. A directory is created 0700, refused when it is a symbolic link, not a
 * directory, or someone else's, and tightened to 0700 when it is looser (ST-01, ST-03). A file is
 * replaced atomically through an unpredictable temporary name opened with `O_EXCL`, synced, then
 * renamed (ST-02), and read with `O_NOFOLLOW` after the checks of its `lstat`.
 * @see SECURITY.md ST-01, ST-02, ST-03, ST-07
 */
import { randomBytes } from 'node:crypto';
import { constants, lstatSync, type Stats } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from '../log.js';
import { currentViewer, judgePath, type PathFacts, type PathVerdict } from './file-verdict.js';

const STRAY_TEMP_AGE_MS = 60 * 60 * 1000;
const isPosix = process.platform !== 'win32';

/** Makes the error a caller reports for an unsafe path (its own code and hint). */
type UnsafePathError = (message: string) => Error;

export interface PrepareDirectoryOptions {
  readonly logger: Pick<Logger, 'warn'>;
  /** How the directory is named in messages, e.g. "token directory". */
  readonly what: string;
  readonly unsafe: UnsafePathError;
}

function factsOf(info: Stats): PathFacts {
  const kind = info.isSymbolicLink() ? 'symlink' : info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other';
  return { kind, uid: info.uid, mode: info.mode };
}

/** Creates `dir` if needed and makes sure it is a private directory; removes stale temporary files. */
export async function preparePrivateDirectory(dir: string, options: PrepareDirectoryOptions): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const verdict = judgePath(factsOf(await lstat(dir)), 'directory', currentViewer());
  if (verdict.kind === 'symlink' || verdict.kind === 'wrong-kind')
    throw options.unsafe(`The ${options.what} ${dir} is not a plain directory.`);
  if (verdict.kind === 'foreign-owner') throw options.unsafe(`The ${options.what} ${dir} belongs to another user.`);
  if (verdict.kind === 'loose') {
    options.logger.warn(`${options.what} permissions were too open; set to 0700`, {
      dir,
      mode: verdict.mode.toString(8),
    });
    await chmod(dir, 0o700);
  }
  await removeStrayTempFiles(dir);
}

/** The verdict on an existing file, or `undefined` when there is none. */
export async function inspectPrivateFile(
  path: string,
): Promise<{ readonly verdict: PathVerdict; readonly info: Stats } | undefined> {
  let info: Stats;
  try {
    // Synchronous on purpose: the token file is looked at on every call, so that another
    // process's sign-out is seen at once, and a local lstat costs about 3 µs of CPU this way
    // against about 55 µs through the thread pool's promise (tools/bench/findings.md).
    info = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return { verdict: judgePath(factsOf(info), 'file', currentViewer()), info };
}

/** Reads a file whose `lstat` was judged; `O_NOFOLLOW` closes the window between that and the open. */
export async function readWithoutFollowing(path: string): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | (isPosix ? constants.O_NOFOLLOW : 0));
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** `readWithoutFollowing`, or undefined when the file is gone: another process may remove it between the check and the read. */
export async function readWithoutFollowingIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readWithoutFollowing(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export interface AtomicWriteOptions {
  readonly unsafe: UnsafePathError;
  /** Test seam: runs after the temporary file is written and synced, before it replaces the target. */
  readonly beforeCommit?: (tempPath: string) => Promise<void> | void;
}

/**
 * Replaces `path` with `content`, mode 0600, never through a symbolic link. The temporary name
 * carries 48 random bits and is opened with `O_EXCL`, so nothing planted in advance is written
 * through. Throws the file system's error (or `unsafe`'s) for the caller to word.
 */
export async function writePrivateFileAtomically(
  path: string,
  content: string,
  options: AtomicWriteOptions,
): Promise<void> {
  const existing = await lstat(path).catch(() => undefined);
  if (existing?.isSymbolicLink()) throw options.unsafe(`${path} is a symbolic link; refusing to replace it.`);
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await options.beforeCommit?.(temp);
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  // The rename is durable only once the directory entry is.
  if (isPosix) {
    const dir = await open(dirname(path), 'r').catch(() => undefined);
    await dir?.sync().catch(() => undefined);
    await dir?.close();
  }
}

async function removeStrayTempFiles(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.endsWith('.tmp')) continue;
    const file = join(dir, name);
    const info = await lstat(file).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > STRAY_TEMP_AGE_MS) await unlink(file).catch(() => undefined);
  }
}
