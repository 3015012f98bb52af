/**
 * MCP over stdio. stdout carries JSON-RPC only (STDIO-01): the wire owns it, and every log goes
 * to stderr. Input that is not a message is answered, not dropped. When the host closes stdin,
 * the calls still running are told first (their answers say the server is going away), then the
 * server shuts down within the bound of STDIO-03.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Logger } from '../log.js';
import type { SchoolServerFactory } from '../server/index.js';
import { createStdioWire } from './stdio-wire.js';

export interface StdioHandle {
  /** Settles once the connection is over: stdin closed, or `close()` called. */
  readonly closed: Promise<void>;
  /** Lets the running requests answer (briefly), then ends the connection. */
  close(): Promise<void>;
}

export interface StdioServeOptions {
  /** stdin ended: the host is done with this server. Called before the running requests are awaited. */
  readonly onInputEnd?: () => void;
  /** The answer to the host's first `tools/list` is written: the host has what a start gives it. */
  readonly onFirstListAnswered?: () => void;
}

/** Well under the 2 s in which STDIO-03 wants the process gone after stdin closes. */
const DRAIN_MS = 1_000;

export function serveOverStdio(
  factory: SchoolServerFactory,
  logger: Logger,
  options: StdioServeOptions = {},
): StdioHandle {
  let finish: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (finish = resolve));
  const wire = createStdioWire({
    input: process.stdin,
    output: process.stdout,
    drainMs: DRAIN_MS,
    onClosed: () => finish(),
    ...(options.onInputEnd === undefined ? {} : { onInputEnd: options.onInputEnd }),
    ...(options.onFirstListAnswered === undefined ? {} : { onFirstListAnswered: options.onFirstListAnswered }),
  });
  const handle = serveStdio(() => factory(), {
    transport: wire,
    onerror: (error) => logger.warn('stdio transport error', { error: error.message }),
  });
  const close = async () => {
    await wire.whenAnswered(DRAIN_MS);
    await handle.close().catch(() => undefined);
    finish();
  };
  return { closed, close };
}
