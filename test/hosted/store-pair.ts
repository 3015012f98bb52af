/**
 * Two store objects on one directory: two instances on one shared store, for the tests of what
 * instances do to each other's grants and locks.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openDirectoryStore, parseStoreKeys, type GrantStore } from '../../src/grant-store/index.js';

/**
 * Opens pairs for the calling test file, whose directories are removed after each of its tests.
 * Called at the top of the file, not here: with vitest's `isolate: false` this module is loaded
 * once per worker, and a hook registered on load would run for the first file only.
 */
export function storePairs(): () => Promise<[GrantStore, GrantStore]> {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), 'school-mcp-two-instances-'));
    dirs.push(dir);
    const keys = parseStoreKeys(randomBytes(32).toString('base64'));
    if (!keys.ok) throw new Error(keys.reason);
    const open = () =>
      openDirectoryStore({ dir: join(dir, 'store'), keyring: keys.keyring, logger: { warn: () => undefined } });
    return [await open(), await open()];
  };
}
