// One process of several sharing a directory store: `count` times, it takes the lock of one record,
// marks that it is inside (a file created with O_EXCL, so a second process inside fails to), adds
// one to a counter record with a fenced write, and leaves. With `abandon`, it takes the lock with a
// short TTL and exits holding it, as a process that died would. Says {"done":n} or {"error":…}.
import { open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [built, dir, key, mode, count] = process.argv.slice(2);
const { holdingLock, openDirectoryStore, parseStoreKeys } = await import(
  pathToFileURL(join(built, 'src/grant-store/index.js')).href
);
const say = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const parsed = parseStoreKeys(key);
const store = await openDirectoryStore({
  dir: join(dir, 'store'),
  keyring: parsed.keyring,
  logger: { warn: () => undefined },
});

if (mode === 'abandon') {
  const lock = await store.lock('counter', 'shared', { ttlMs: Number(count) });
  say({ abandoned: lock?.fence ?? null });
  process.exit(0);
}

try {
  for (let round = 0; round < Number(count); round += 1) {
    await holdingLock(store, 'counter', 'shared', { ttlMs: 30_000, waitMs: 60_000, pollMs: 2 }, async (fence) => {
      const marker = await open(join(dir, 'inside'), 'wx');
      const current = (await store.read('counter', 'shared'))?.count ?? 0;
      if (!(await store.writeFenced('counter', 'shared', { count: current + 1 }, fence)))
        throw new Error(`fence ${fence} was refused`);
      await marker.close();
      await unlink(join(dir, 'inside'));
    });
  }
  say({ done: Number(count) });
} catch (error) {
  say({ error: String(error?.message ?? error) });
}
