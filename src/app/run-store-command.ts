/**
 * `runStoreCommand`, with the grant store and the hosted parts loaded only for a `store …` command
 * (`OPTIONAL_PACKAGE_MISSING` when a plain install left their packages out).
 */
import { fileURLToPath } from 'node:url';
import type { Config } from '../config/index.js';
import type { Logger } from '../log.js';
import { optionalPackageError } from '../optional-packages.js';
import type { StoreCommandResult } from './store-command.js';

export async function runStoreCommand(config: Config, logger: Logger): Promise<StoreCommandResult> {
  const command = await import('./store-command.js').catch((error: unknown) => {
    throw optionalPackageError(error, 'hosted', fileURLToPath(import.meta.url));
  });
  return command.runStoreCommand(config, logger);
}
