/**
 * The embedded grant store: one directory, one subdirectory (0700) per namespace, one sealed
 * record file (0600, replaced atomically) per record. A record's file is named by the SHA-256 of
 * its name, so a name that is a token or a user id never appears on disk. Nothing is cached in
 * the process: every read goes to the file, so what one call wrote the next one sees. Several
 * processes may share the directory: a record's lock is a directory of fence files next to it.
 */
import { lstat, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log.js';
import { preparePrivateDirectory } from '../private-files/index.js';
import { takeDirectoryLock } from './directory-lock.js';
import { fencedWriteVerdict, writtenFenceOf } from './fenced-write-verdict.js';
import { checkFence, checkLockOptions, type LockOptions } from './fencing.js';
import {
  expiryOf,
  isValidNamespace,
  type FencedWriteOptions,
  type GrantStore,
  type StoredValue,
  type WriteOptions,
} from './grant-store.js';
import { sweepRemoves } from './record-expiry.js';
import {
  claimRecordFile,
  createRecordFileIfAbsent,
  readRecordFile,
  replaceRecordIfUnchanged,
  setRecordAside,
  writeRecordFile,
} from './record-file.js';
import { isRecordFileName, lockDirOf, recordAddressOf, setAsidePathOf } from './record-file-name.js';
import { recordReading } from './record-reading.js';
import { sealRecord, type RecordAddress } from './sealed-record.js';
import { storeRecordUnreadable, storeUnsafe, storeWriteFailed } from './store-errors.js';
import type { StoreKeyring } from './store-keys.js';
import type { ScannedRecord, SealedRecordScan } from './store-rotation.js';

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

export async function openDirectoryStore(options: DirectoryStoreOptions): Promise<DirectoryGrantStore> {
  const { dir, keyring, logger } = options;
  const now = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  await preparePrivateDirectory(dir, { logger, what: 'grant store directory', unsafe: storeUnsafe });
  const prepared = new Set<string>();

  async function recordPath(namespace: string, name: string): Promise<{ path: string; address: RecordAddress }> {
    const address = recordAddressOf(namespace, name);
    const namespaceDir = join(dir, namespace);
    if (!prepared.has(namespace)) {
      await preparePrivateDirectory(namespaceDir, { logger, what: 'grant store directory', unsafe: storeUnsafe });
      prepared.add(namespace);
    }
    return { path: join(namespaceDir, address.name), address };
  }

  const sealed = (value: StoredValue, address: RecordAddress, expiresAt: number | undefined, fence?: number) =>
    JSON.stringify(sealRecord(JSON.stringify({ value }), address, expiresAt, keyring.current, fence));

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
    const reading = recordReading(text, address, keyring, now());
    switch (reading.kind) {
      case 'damaged':
        await setRecordAside(path, setAsidePathOf(path, now()), reading.reason, logger);
        return undefined;
      case 'expired':
        await unlink(path).catch(() => undefined);
        return undefined;
      case 'unknown-key':
        throw storeRecordUnreadable(`it was sealed with key ${reading.keyId}, which is not among the store keys`);
      case 'value':
        if (reseal && reading.oldKey) {
          const { plaintext, sealed: old } = reading;
          const resealed = sealRecord(plaintext, address, old.expiresAt, keyring.current, old.fence);
          await replaceRecordIfUnchanged(path, text, JSON.stringify(resealed), logger);
        }
        return reading.value;
    }
  }

  const readAt = (path: string, address: RecordAddress, reseal: boolean) =>
    readRecordFile(path, logger).then((text) =>
      text === undefined ? undefined : openText(text, path, address, reseal),
    );

  return {
    async read(namespace, name) {
      const { path, address } = await recordPath(namespace, name);
      return readAt(path, address, true);
    },

    async write(namespace, name, value, writeOptions?: WriteOptions) {
      const { path, address } = await recordPath(namespace, name);
      await writeRecordFile(path, sealed(value, address, expiryOf(writeOptions, now())), `a ${namespace} record`);
    },

    async writeIfAbsent(namespace, name, value, writeOptions?: WriteOptions) {
      const { path, address } = await recordPath(namespace, name);
      const text = sealed(value, address, expiryOf(writeOptions, now()));
      return createRecordFileIfAbsent(
        path,
        text,
        `a ${namespace} record`,
        async () => (await readAt(path, address, false)) !== undefined,
      );
    },

    async remove(namespace, name) {
      const { path } = await recordPath(namespace, name);
      await unlink(path).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw storeWriteFailed(`the removal of a ${namespace} record`, error);
      });
    },

    async take(namespace, name) {
      const { path, address } = await recordPath(namespace, name);
      return claimRecordFile(path, `a ${namespace} record`, (claimed) => readAt(claimed, address, false));
    },

    async lock(namespace, name, lockOptions: LockOptions) {
      checkLockOptions(lockOptions);
      const { path } = await recordPath(namespace, name);
      const writtenFence = async () => writtenFenceOf(await readRecordFile(path, logger));
      return takeDirectoryLock(
        { logger, lockDir: lockDirOf(path), writtenFence, nowMs: () => Date.now() },
        lockOptions,
      );
    },

    async writeFenced(namespace, name, value, fence, writeOptions?: FencedWriteOptions) {
      checkFence(fence);
      const { path, address } = await recordPath(namespace, name);
      // Checked and written by the lock's holder: another writer is there only after the lock ran out.
      const verdict = fencedWriteVerdict(await readRecordFile(path, logger), fence, writeOptions?.replaceOnly);
      if (verdict.kind === 'refuse') return false;
      const text = sealed(value, address, expiryOf(writeOptions, now()), fence);
      await writeRecordFile(path, text, `a ${namespace} record`);
      return true;
    },

    async sweep() {
      let removed = 0;
      for (const namespace of await readdir(dir).catch(() => [] as string[])) {
        if (!isValidNamespace(namespace) || !(await stat(join(dir, namespace))).isDirectory()) continue;
        for (const file of (await readdir(join(dir, namespace))).filter(isRecordFileName)) {
          const path = join(dir, namespace, file);
          if (!sweepRemoves(await readRecordFile(path, logger), now())) continue;
          await unlink(path).catch(() => undefined);
          removed += 1;
        }
      }
      return removed;
    },

    scan: () => scanDirectory(dir, logger),

    async ping() {
      // A directory that went away (an unmounted volume) is the one failure a readiness check can see.
      const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
        throw storeUnsafe(`The grant store directory ${dir} cannot be read (${error.code ?? 'error'}).`);
      });
      if (!info.isDirectory()) throw storeUnsafe(`The grant store directory ${dir} is not a directory.`);
    },
  };
}

/** Every record file under `dir` as it is on disk, in a stable order, for a key rotation to finish. */
function scanDirectory(dir: string, logger: Pick<Logger, 'warn'>): SealedRecordScan {
  async function* records(): AsyncGenerator<ScannedRecord> {
    for (const namespace of (await readdir(dir).catch(() => [] as string[])).sort()) {
      // lstat: a namespace that is a link is none of the store's (the store refuses to use one).
      if (!isValidNamespace(namespace) || !(await lstat(join(dir, namespace))).isDirectory()) continue;
      for (const file of (await readdir(join(dir, namespace))).filter(isRecordFileName).sort()) {
        const text = await readRecordFile(join(dir, namespace, file), logger);
        // Taken or removed since the listing.
        if (text !== undefined) yield { address: { namespace, name: file }, text };
      }
    }
  }
  return {
    location: dir,
    records,
    replaceIfUnchanged: (record, sealed) =>
      replaceRecordIfUnchanged(join(dir, record.address.namespace, record.address.name), record.text, sealed, logger),
  };
}
