/**
 * `runHosted`, with hosted mode's parts (the authorization server, the grant store) loaded only
 * when `--hosted` is given: a stdio server never pays for them at start.
 */
import type { Config } from '../config/index.js';
import type { Logger } from '../log.js';

export async function runHosted(config: Config, logger: Logger, version: string): Promise<number> {
  const hosted = await import('./hosted-command.js');
  return hosted.runHosted(config, logger, version);
}
