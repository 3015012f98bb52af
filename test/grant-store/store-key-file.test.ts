import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStoreKeyFile, storeKeyId } from '../../src/grant-store/index.js';

const posix = process.platform !== 'win32';
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function keyFile(content: string, mode: number): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'school-mcp-key-'));
  const path = join(dir, 'store.key');
  await writeFile(path, content, { mode });
  return path;
}

describe('the store key file', () => {
  it('reads the keys of a private file', async () => {
    const key = randomBytes(32);
    const keyring = await readStoreKeyFile(await keyFile(`${key.toString('base64')}\n`, 0o600));
    expect(keyring.current.id).toBe(storeKeyId(key));
  });

  it.skipIf(!posix)('HST-02 refuses a key file that others can read, or that is a symbolic link', async () => {
    const loose = await keyFile(randomBytes(32).toString('base64'), 0o644);
    await expect(readStoreKeyFile(loose)).rejects.toMatchObject({ code: 'STORE_UNSAFE' });
    const link = join(dir!, 'link.key');
    await symlink(loose, link);
    await expect(readStoreKeyFile(link)).rejects.toMatchObject({ code: 'STORE_UNSAFE' });
  });

  it('names a missing key file as an unusable key', async () => {
    dir = await mkdtemp(join(tmpdir(), 'school-mcp-key-'));
    await expect(readStoreKeyFile(join(dir, 'absent.key'))).rejects.toMatchObject({ code: 'STORE_KEY_INVALID' });
  });
});
