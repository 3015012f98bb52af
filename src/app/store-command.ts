/**
 * `school-mcp store keys | reseal | reset-secrets`: the grant store `--hosted` would open (the
 * same `--store`, key file or `SCHOOL_MCP_STORE_KEY`, and Redis password), for finishing a key
 * rotation while instances serve, and for starting over when the authorization server's secrets
 * were sealed with a key that is gone.
 */
import { stat } from 'node:fs/promises';
import type { Config } from '../config/index.js';
import { SchoolMcpError } from '../errors.js';
import {
  countStoreKeys,
  openDirectoryStore,
  openRedisStore,
  parseStoreLocation,
  resealStore,
  type GrantStore,
  type ResealReport,
  type SealedRecordScan,
  type StoreKeyring,
} from '../grant-store/index.js';
import { resetProviderSecrets, type SecretsReset } from '../hosted/index.js';
import type { Logger } from '../log.js';
import { keyringOf, storeLocationText } from './hosted-command.js';

export type StoreCommandResult =
  | { readonly kind: 'census'; readonly report: ResealReport }
  | { readonly kind: 'secrets-reset'; readonly outcome: SecretsReset };

function configInvalid(message: string): SchoolMcpError {
  return new SchoolMcpError('CONFIG_INVALID', message, {
    hint: 'give the --store that `school-mcp --hosted` uses (or SCHOOL_MCP_STORE)',
  });
}

interface OpenedStore {
  readonly store: GrantStore & { scan(): SealedRecordScan };
  close(): Promise<void>;
}

async function openNamedStore(config: Config, logger: Logger, keyring: StoreKeyring): Promise<OpenedStore> {
  const location = parseStoreLocation(storeLocationText(config, config.store!.storeDir));
  if (!location.ok) throw configInvalid(`--store: ${location.reason}`);
  if (location.location.kind === 'redis') {
    const store = await openRedisStore({
      address: location.location.address,
      password: config.store!.redisPassword,
      keyring,
      logger,
    });
    return { store, close: () => store.close() };
  }
  const { dir } = location.location;
  // Opening a directory store makes it; a maintenance command must not make an empty one where a path was mistyped.
  const info = await stat(dir).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) throw configInvalid(`there is no grant store directory at ${dir}`);
  return { store: await openDirectoryStore({ dir, keyring, logger }), close: async () => undefined };
}

export async function runStoreCommand(config: Config, logger: Logger): Promise<StoreCommandResult> {
  const keyring = await keyringOf(config.store!);
  const opened = await openNamedStore(config, logger, keyring);
  const now = () => Math.floor(Date.now() / 1000);
  try {
    if (config.command === 'store-reset-secrets')
      return { kind: 'secrets-reset', outcome: await resetProviderSecrets(opened.store) };
    const scan = opened.store.scan();
    return {
      kind: 'census',
      report:
        config.command === 'store-reseal'
          ? await resealStore(scan, keyring, now)
          : await countStoreKeys(scan, keyring, now),
    };
  } finally {
    await opened.close();
  }
}
