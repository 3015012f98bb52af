/**
 * Reading the store keys from a key file, which must be private like the records it opens.
 */
import { inspectPrivateFile, readWithoutFollowing } from '../private-files/index.js';
import { storeKeyInvalid, storeUnsafe } from './store-errors.js';
import { parseStoreKeys, type StoreKeyring } from './store-keys.js';

/** The keyring of `SCHOOL_MCP_STORE_KEY`'s text. */
export function storeKeysFromText(text: string): StoreKeyring {
  const parsed = parseStoreKeys(text);
  if (!parsed.ok) throw storeKeyInvalid(parsed.reason);
  return parsed.keyring;
}

/** The keyring in `path`: a plain file of the user's, closed to group and others. */
export async function readStoreKeyFile(path: string): Promise<StoreKeyring> {
  const inspected = await inspectPrivateFile(path);
  if (inspected === undefined) throw storeKeyInvalid(`the key file ${path} does not exist`);
  const { verdict } = inspected;
  if (verdict.kind === 'symlink')
    throw storeUnsafe(`The store key file ${path} is a symbolic link; refusing to use it.`);
  if (verdict.kind === 'wrong-kind') throw storeUnsafe(`The store key file ${path} is not a regular file.`);
  if (verdict.kind === 'foreign-owner') throw storeUnsafe(`The store key file ${path} belongs to another user.`);
  if (verdict.kind === 'loose')
    throw storeUnsafe(
      `The store key file ${path} can be read by others (mode ${verdict.mode.toString(8)}); chmod 600 it and rotate the key.`,
    );
  return storeKeysFromText(await readWithoutFollowing(path));
}
