/**
 * The embedded grant store: one directory, one subdirectory (0700) per namespace, one sealed
 * record file (0600, replaced atomically) per record. A record's file is named by the SHA-256 of
 * its name, so a name that is a token or a user id never appears on disk. Nothing is cached in
 * the process: every read goes to the file, so what one call wrote the next one sees. Several
 * processes may share the directory: a record's lock is a directory of fence files next to it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmod, link, lstat, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { SchoolMcpError } from '../errors.js';
import type { Logger } from '../log.js';
import {
  inspectPrivateFile,
  preparePrivateDirectory,
  readWithoutFollowing,
  writePrivateFileAtomically,
} from '../private-files/index.js';
import { takeDirectoryLock } from './directory-lock.js';
import { checkFence, checkLockOptions, fenceAccepts, type LockOptions } from './fencing.js';
import {
  expiryOf,
  isValidNamespace,
  type FencedWriteOptions,
  type GrantStore,
  type StoredValue,
  type WriteOptions,
} from './grant-store.js';
import { openRecord, parseSealedRecord, sealedValueOf, sealRecord, type RecordAddress } from './sealed-record.js';
import { storeRecordUnreadable, storeUnsafe, storeWriteFailed } from './store-errors.js';
import type { StoreKeyring } from './store-keys.js';
import type { ScannedRecord, SealedRecordScan } from './store-rotation.js';

/** Far above any grant or client record; a bigger file is not one of ours. */
const MAX_RECORD_BYTES = 256 * 1024;
const RECORD_SUFFIX = '.rec';
/** A record's lock directory is its file's name with this suffix (`directory-lock.ts`). */
const LOCK_SUFFIX = '.lock';

export interface DirectoryStoreOptions {
  readonly dir: string;
  readonly keyring: StoreKeyring;
  readonly logger: Pick<Logger, 'warn'>;
  /** Seconds since the epoch; tests move it to expire records. */
  readonly nowSeconds?: () => number;
}

/** The directory store, with the scan a key rotation finishes with. */
export interface DirectoryGrantStore extends GrantStore {
  scan(): SealedRecordScan;
}

/** Thrown inside a replacement to call it off: the record changed after it was read. */
const CHANGED_MEANWHILE = new Error('the record changed meanwhile');

/** Pure: the file name of a record, from its name. */
export function recordFileName(name: string): string {
  return `${createHash('sha256').update(name, 'utf8').digest('base64url')}${RECORD_SUFFIX}`;
}

export async function openDirectoryStore(options: DirectoryStoreOptions): Promise<DirectoryGrantStore> {
  const { dir, keyring, logger } = options;
  const now = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  await preparePrivateDirectory(dir, { logger, what: 'grant store directory', unsafe: storeUnsafe });
  const prepared = new Set<string>();

  function checkName(namespace: string, name: string): void {
    if (!isValidNamespace(namespace)) throw new RangeError(`not a store namespace: ${JSON.stringify(namespace)}`);
    if (name === '') throw new RangeError('a record needs a name');
  }

  async function namespaceDir(namespace: string): Promise<string> {
    const path = join(dir, namespace);
    if (!prepared.has(namespace)) {
      await preparePrivateDirectory(path, { logger, what: 'grant store directory', unsafe: storeUnsafe });
      prepared.add(namespace);
    }
    return path;
  }

  async function recordPath(namespace: string, name: string): Promise<{ path: string; address: RecordAddress }> {
    checkName(namespace, name);
    const file = recordFileName(name);
    return { path: join(await namespaceDir(namespace), file), address: { namespace, name: file } };
  }

  /** The file's text after the checks of its `lstat`; `undefined` when there is none. */
  async function readRecordFile(path: string): Promise<string | undefined> {
    const inspected = await inspectPrivateFile(path);
    if (inspected === undefined) return undefined;
    const { verdict, info } = inspected;
    if (verdict.kind === 'symlink')
      throw storeUnsafe(`The grant store record ${path} is a symbolic link; refusing to use it.`);
    if (verdict.kind === 'wrong-kind') throw storeUnsafe(`The grant store record ${path} is not a regular file.`);
    if (verdict.kind === 'foreign-owner') throw storeUnsafe(`The grant store record ${path} belongs to another user.`);
    if (verdict.kind === 'loose') {
      logger.warn('a grant store record was readable by others; set to 0600', {
        file: path,
        mode: verdict.mode.toString(8),
      });
      await chmod(path, 0o600);
    }
    if (info.size > MAX_RECORD_BYTES) return '';
    return readWithoutFollowing(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
  }

  async function setAside(path: string, reason: string): Promise<void> {
    const aside = `${path}.damaged-${now()}`;
    await rename(path, aside).catch(() => undefined);
    logger.warn('a grant store record did not open and was set aside; its user signs in again', {
      reason,
      file: aside,
    });
  }

  async function writeSealed(
    path: string,
    address: RecordAddress,
    value: StoredValue,
    expiresAt: number | undefined,
    fence?: number,
  ): Promise<void> {
    const sealed = sealRecord(JSON.stringify({ value }), address, expiresAt, keyring.current, fence);
    try {
      await writePrivateFileAtomically(path, JSON.stringify(sealed), {
        unsafe: () => storeUnsafe(`The grant store record ${path} is a symbolic link; refusing to replace it.`),
      });
    } catch (error) {
      if (error instanceof SchoolMcpError) throw error;
      throw storeWriteFailed(`a ${address.namespace} record`, error);
    }
  }

  /**
   * Replaces the record file with `next` only while it still holds `expected`, checked after the
   * new file is written and synced, just before the rename(2) that puts it in place. A POSIX
   * directory has no compare-and-swap of a file, so a writer whose own rename lands between that
   * check and this rename is overwritten: a window of two system calls, against the whole read,
   * open and seal it would otherwise be. Readers never see the record missing.
   */
  async function replaceIfUnchanged(path: string, expected: string, next: string): Promise<boolean> {
    try {
      await writePrivateFileAtomically(path, next, {
        unsafe: () => storeUnsafe(`The grant store record ${path} is a symbolic link; refusing to replace it.`),
        beforeCommit: async () => {
          if ((await readRecordFile(path)) !== expected) throw CHANGED_MEANWHILE;
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
   * The value in a record file's text. A record sealed with an older key is sealed again with the
   * current one (when `reseal` is given), so a rotation finishes as records are used.
   */
  async function openText(
    text: string,
    path: string,
    address: RecordAddress,
    reseal: boolean,
  ): Promise<StoredValue | undefined> {
    const sealed = parseSealedRecord(text);
    if (sealed === undefined) {
      await setAside(path, 'not a sealed record');
      return undefined;
    }
    if (sealed.expiresAt !== undefined && sealed.expiresAt <= now()) {
      await unlink(path).catch(() => undefined);
      return undefined;
    }
    if (!keyring.byId.has(sealed.keyId))
      throw storeRecordUnreadable(`it was sealed with key ${sealed.keyId}, which is not among the store keys`);
    const opened = openRecord(sealed, address, keyring);
    if (!opened.ok) {
      await setAside(path, opened.reason);
      return undefined;
    }
    const value = sealedValueOf(opened.plaintext);
    if (value === undefined) {
      await setAside(path, 'it opens but holds no record');
      return undefined;
    }
    if (reseal && opened.keyId !== keyring.current.id) {
      await replaceIfUnchanged(
        path,
        text,
        JSON.stringify(sealRecord(opened.plaintext, address, sealed.expiresAt, keyring.current, sealed.fence)),
      );
    }
    return value;
  }

  /** The fence in the envelope of a record's file, read without opening the seal. */
  async function writtenFence(path: string): Promise<number | undefined> {
    return parseSealedRecord((await readRecordFile(path)) ?? '')?.fence;
  }

  return {
    async read(namespace, name) {
      const { path, address } = await recordPath(namespace, name);
      const text = await readRecordFile(path);
      return text === undefined ? undefined : openText(text, path, address, true);
    },

    async write(namespace, name, value, writeOptions?: WriteOptions) {
      const { path, address } = await recordPath(namespace, name);
      await writeSealed(path, address, value, expiryOf(writeOptions, now()));
    },

    async writeIfAbsent(namespace, name, value, writeOptions?: WriteOptions) {
      const { path, address } = await recordPath(namespace, name);
      const sealed = JSON.stringify(
        sealRecord(JSON.stringify({ value }), address, expiryOf(writeOptions, now()), keyring.current),
      );
      // link(2) fails with EEXIST when the name is taken, so of two creators one wins; the record
      // is complete before it has its name, so no reader sees half of it.
      const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        const handle = await open(temp, 'wx', 0o600);
        try {
          await handle.writeFile(sealed, 'utf8');
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
            // An expired record is removed by reading it, and then the name is free once more.
            const text = await readRecordFile(path);
            if (text !== undefined && (await openText(text, path, address, false)) !== undefined) return false;
          }
        }
        return false;
      } catch (error) {
        if (error instanceof SchoolMcpError) throw error;
        throw storeWriteFailed(`a ${namespace} record`, error);
      } finally {
        await unlink(temp).catch(() => undefined);
      }
    },

    async remove(namespace, name) {
      const { path } = await recordPath(namespace, name);
      await unlink(path).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw storeWriteFailed(`the removal of a ${namespace} record`, error);
      });
    },

    async take(namespace, name) {
      const { path, address } = await recordPath(namespace, name);
      // rename(2) is atomic: of two takers, one moves the file and the other finds nothing.
      const claimed = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await rename(path, claimed);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw storeWriteFailed(`a ${namespace} record`, error);
      }
      try {
        const text = await readRecordFile(claimed);
        return text === undefined ? undefined : await openText(text, claimed, address, false);
      } finally {
        await unlink(claimed).catch(() => undefined);
      }
    },

    async lock(namespace, name, lockOptions: LockOptions) {
      checkLockOptions(lockOptions);
      const { path } = await recordPath(namespace, name);
      return takeDirectoryLock(
        { logger, lockDir: `${path}${LOCK_SUFFIX}`, writtenFence: () => writtenFence(path), nowMs: () => Date.now() },
        lockOptions,
      );
    },

    async writeFenced(namespace, name, value, fence, writeOptions?: FencedWriteOptions) {
      checkFence(fence);
      const { path, address } = await recordPath(namespace, name);
      // Checked and written by the lock's holder: another writer is there only after the lock ran out.
      const text = await readRecordFile(path);
      if (text === undefined && writeOptions?.replaceOnly) return false;
      if (!fenceAccepts(parseSealedRecord(text ?? '')?.fence, fence)) return false;
      await writeSealed(path, address, value, expiryOf(writeOptions, now()), fence);
      return true;
    },

    async sweep() {
      let removed = 0;
      for (const namespace of await readdir(dir).catch(() => [] as string[])) {
        if (!isValidNamespace(namespace) || !(await stat(join(dir, namespace))).isDirectory()) continue;
        for (const file of await readdir(join(dir, namespace))) {
          if (!file.endsWith(RECORD_SUFFIX)) continue;
          const path = join(dir, namespace, file);
          const sealed = parseSealedRecord((await readRecordFile(path)) ?? '');
          if (sealed?.expiresAt !== undefined && sealed.expiresAt <= now()) {
            await unlink(path).catch(() => undefined);
            removed += 1;
          }
        }
      }
      return removed;
    },

    scan() {
      async function* records(): AsyncGenerator<ScannedRecord> {
        for (const namespace of (await readdir(dir).catch(() => [] as string[])).sort()) {
          // lstat: a namespace that is a link is none of the store's (the store refuses to use one).
          if (!isValidNamespace(namespace) || !(await lstat(join(dir, namespace))).isDirectory()) continue;
          for (const file of (await readdir(join(dir, namespace))).sort()) {
            if (!file.endsWith(RECORD_SUFFIX)) continue;
            const text = await readRecordFile(join(dir, namespace, file));
            // Taken or removed since the listing.
            if (text !== undefined) yield { address: { namespace, name: file }, text };
          }
        }
      }
      return {
        location: dir,
        records,
        replaceIfUnchanged: (record, sealed) =>
          replaceIfUnchanged(join(dir, record.address.namespace, record.address.name), record.text, sealed),
      };
    },

    async ping() {
      // A directory that went away (an unmounted volume) is the one failure a readiness check can see.
      const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
        throw storeUnsafe(`The grant store directory ${dir} cannot be read (${error.code ?? 'error'}).`);
      });
      if (!info.isDirectory()) throw storeUnsafe(`The grant store directory ${dir} is not a directory.`);
    },
  };
}
