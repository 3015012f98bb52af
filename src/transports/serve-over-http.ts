/**
 * `serveOverHttp`: `startHttpEndpoint` of `http.ts`, with the HTTP stack (the Node adapter, the
 * request handler, the guards) loaded when HTTP is chosen: a stdio server never pays for it at
 * start.
 */
import type { HttpConfig } from '../config/index.js';
import type { Logger } from '../log.js';
import type { SchoolServerFactory } from '../server/index.js';
import type { HttpHandle, HttpServeOptions } from './http.js';

export async function serveOverHttp(
  factory: SchoolServerFactory,
  config: HttpConfig,
  logger: Logger,
  options: HttpServeOptions = {},
): Promise<HttpHandle> {
  const http = await import('./http.js');
  return http.startHttpEndpoint(factory, config, logger, options);
}
