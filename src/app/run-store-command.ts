/**
 * `runStoreCommand`, with the grant store and the hosted parts loaded only for a `store …` command.
 */
import type { Config } from '../config/index.js';
import type { Logger } from '../log.js';
import type { StoreCommandResult } from './store-command.js';

export async function runStoreCommand(config: Config, logger: Logger): Promise<StoreCommandResult> {
  const command = await import('./store-command.js');
  return command.runStoreCommand(config, logger);
}
