/**
 * MCP over stdio. stdout carries JSON-RPC only (STDIO-01): the SDK's transport owns it, and every
 * log goes to stderr. When the host closes stdin the server shuts down (STDIO-03).
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Logger } from '../log.js';
import type { SchoolServerFactory } from '../server/index.js';

export interface StdioHandle {
  /** Settles once the connection is over: stdin closed, or `close()` called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export function serveOverStdio(factory: SchoolServerFactory, logger: Logger): StdioHandle {
  const handle = serveStdio(() => factory(), {
    onerror: (error) => logger.warn('stdio transport error', { error: error.message }),
  });
  let finish: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (finish = resolve));
  const close = async () => {
    await handle.close().catch(() => undefined);
    finish();
  };
  process.stdin.once('end', () => void close());
  process.stdin.once('close', () => void close());
  return { closed, close };
}
