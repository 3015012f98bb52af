/**
 * `runHosted`: `serveHosted` of `hosted-command.ts`, with hosted mode's parts (the authorization
 * server, the grant store) loaded only when `--hosted` is given: a stdio server never pays for
 * them at start, and a plain install, which leaves their packages out, answers
 * `OPTIONAL_PACKAGE_MISSING` with the command to add them.
 */
import { fileURLToPath } from 'node:url';
import type { Config } from '../config/index.js';
import type { Logger } from '../log.js';
import { optionalPackageError } from '../optional-packages.js';

export async function runHosted(config: Config, logger: Logger, version: string): Promise<number> {
  const hosted = await import('./hosted-command.js').catch((error: unknown) => {
    throw optionalPackageError(error, 'hosted', fileURLToPath(import.meta.url));
  });
  return hosted.serveHosted(config, logger, version);
}
