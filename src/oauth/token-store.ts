/**
 * The token store on disk: one file per issuer (the name is a hash of the issuer, never of the
 * package version), mode 0600 in a 0700 directory, enforced on existing files too (ST-01),
 * replaced atomically (ST-02), never through a symlink or a file owned by someone else (ST-03).
 * A corrupt file is set aside and read as "signed out" (ST-04); its content is never logged.
 */
import { createHash } from 'node:crypto';
import { chmod, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log.js';
import {
  inspectPrivateFile,
  preparePrivateDirectory,
  readWithoutFollowing,
  writePrivateFileAtomically,
} from '../private-files/index.js';
import { acquireLock, type LockOptions } from './file-lock.js';
import { OAuthError } from './oauth-error.js';
import { emptyRecord, parseStoreRecord, serializeStoreRecord, type StoreRecord } from './store-record.js';

/** Larger than any honest record by orders of magnitude. */
const MAX_STORE_BYTES = 256 * 1024;

export interface TokenStoreOptions {
  dir: string;
  issuer: string;
  logger: Logger;
  now: () => number;
  /** Test seam: runs after the temp file is written and synced, before it replaces the record. */
  beforeCommit?: (tempPath: string) => Promise<void> | void;
}

export interface TokenStore {
  readonly path: string;
  /** Path of a lock file beside the record, e.g. `lockPath('refresh')`. */
  lockPath(purpose: string): string;
  read(): Promise<StoreRecord>;
  /** Read-modify-write under the store lock, so concurrent processes never lose each other's changes. */
  update(mutate: (record: StoreRecord) => StoreRecord): Promise<StoreRecord>;
  readonly lockOptions: LockOptions;
}

/** The file name of an issuer's record: a hash, so no issuer text reaches the file system. */
export function storeFileName(issuer: string): string {
  return `tokens-${createHash('sha256').update(issuer).digest('hex').slice(0, 32)}.json`;
}

export function createTokenStore(options: TokenStoreOptions): TokenStore {
  const path = join(options.dir, storeFileName(options.issuer));
  const lockOptions: LockOptions = { staleMs: 30_000, now: options.now };
  let directoryReady: Promise<void> | undefined;
  const ensureDirectory = () =>
    (directoryReady ??= preparePrivateDirectory(options.dir, {
      logger: options.logger,
      what: 'token directory',
      unsafe,
    }));

  // Every tool call reads the record, so that another process's refresh or sign-out is seen at
  // once. The file is replaced by rename, never edited in place: an unchanged identity (inode,
  // size, times) means unchanged content, and the checks of the lstat still run on every read.
  let last: { readonly identity: string; readonly record: StoreRecord } | undefined;
  const read = async (): Promise<StoreRecord> => {
    await ensureDirectory();
    const file = await readRecordFile(path, options.logger, last?.identity);
    if (file === undefined) return emptyRecord(options.issuer);
    if (file.text === undefined && last !== undefined) return structuredClone(last.record);
    const parsed = parseStoreRecord(file.text ?? '', options.issuer);
    if (parsed.ok) {
      last = { identity: file.identity, record: structuredClone(parsed.record) };
      return parsed.record;
    }
    await quarantine(path, options.now(), parsed.reason, options.logger);
    return emptyRecord(options.issuer);
  };

  return {
    path,
    lockOptions,
    lockPath: (purpose) => `${path.slice(0, -'.json'.length)}.${purpose}.lock`,
    read,
    async update(mutate) {
      await ensureDirectory();
      const lock = await acquireLock(`${path.slice(0, -'.json'.length)}.store.lock`, {
        ...lockOptions,
        waitMs: 10_000,
        what: 'token store',
      });
      try {
        const next = mutate(await read());
        await writeAtomically(path, serializeStoreRecord(next), options.beforeCommit);
        return next;
      } finally {
        await lock.release();
      }
    },
  };
}

function unsafe(message: string): OAuthError {
  return new OAuthError('OAUTH_STORE_UNSAFE', message, {
    hint: 'Remove the file or fix its ownership, or point SCHOOL_MCP_CONFIG_DIR at a private directory.',
  });
}

/**
 * The record file's text, or only its identity when that equals `knownIdentity` (the content is
 * then the one read before). `undefined` when there is no file.
 */
async function readRecordFile(
  path: string,
  logger: Logger,
  knownIdentity?: string,
): Promise<{ identity: string; text?: string } | undefined> {
  const inspected = await inspectPrivateFile(path);
  if (inspected === undefined) return undefined;
  const { verdict, info } = inspected;
  if (verdict.kind === 'symlink') throw unsafe(`The token file ${path} is a symbolic link; refusing to use it.`);
  if (verdict.kind === 'wrong-kind') throw unsafe(`The token file ${path} is not a regular file.`);
  if (verdict.kind === 'foreign-owner') throw unsafe(`The token file ${path} belongs to another user.`);
  if (verdict.kind === 'loose') {
    logger.warn('token file was readable by others; set to 0600', { file: path, mode: verdict.mode.toString(8) });
    await chmod(path, 0o600);
  }
  const identity = `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
  if (identity === knownIdentity) return { identity };
  if (info.size > MAX_STORE_BYTES) return { identity, text: '' };
  return { identity, text: await readWithoutFollowing(path) };
}

async function quarantine(path: string, now: number, reason: string, logger: Logger): Promise<void> {
  const aside = `${path}.corrupt-${now}`;
  await rename(path, aside).catch(() => undefined);
  await chmod(aside, 0o600).catch(() => undefined);
  logger.warn('the token file was unreadable and has been set aside; sign in again', { reason, file: aside });
}

async function writeAtomically(
  path: string,
  content: string,
  beforeCommit?: (tempPath: string) => Promise<void> | void,
): Promise<void> {
  try {
    await writePrivateFileAtomically(path, content, {
      unsafe: () => unsafe(`The token file ${path} is a symbolic link; refusing to replace it.`),
      ...(beforeCommit === undefined ? {} : { beforeCommit }),
    });
  } catch (error) {
    if (error instanceof OAuthError) throw error;
    throw new OAuthError(
      'OAUTH_STORE_WRITE_FAILED',
      `The token file could not be saved (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
      {
        cause: error,
        hint: 'Free disk space or fix the permissions of the school-mcp config directory, then try again.',
      },
    );
  }
}
