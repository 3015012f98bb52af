/**
 * `school-mcp` as a raw child process over stdio, without any client that might tolerate noise or
 * negotiate for the test: lines written to stdin as they are, every stdout line kept and parsed.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { MAIN_JS } from './mcp-stdio.js';

export interface RawServer {
  child: ChildProcessWithoutNullStreams;
  stdout: string[];
  stderr: string[];
  request(id: number, method: string, params?: unknown): Promise<Record<string, any>>;
  /** Writes one raw line to stdin, newline added. */
  writeLine(line: string): void;
  /** The next stdout message (object or batch array) after those already taken, parsed; log messages are passed over. */
  nextMessage(): Promise<any>;
  exited: Promise<number | null>;
}

/** `configDir` doubles as HOME, so nothing of the user's is read. */
export function spawnRaw(configDir: string, args: string[], env: Record<string, string> = {}): RawServer {
  const child = spawn(process.execPath, [MAIN_JS, '--config-dir', configDir, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: configDir, ...env },
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const waiting = new Map<number, (message: Record<string, any>) => void>();
  const parsed: unknown[] = [];
  let taken = 0;
  let onParsed: (() => void) | undefined;
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      stdout.push(line);
      try {
        const message = JSON.parse(line) as Record<string, any>;
        parsed.push(message);
        onParsed?.();
        if (typeof message['id'] === 'number') waiting.get(message['id'])?.(message);
      } catch {
        // kept in `stdout` for the assertion that every line is JSON-RPC
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => stderr.push(...chunk.toString('utf8').split('\n')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stdout,
    stderr,
    exited,
    writeLine(line) {
      child.stdin.write(`${line}\n`);
    },
    nextMessage() {
      return new Promise((resolve) => {
        const check = () => {
          // The server's warnings reach the host as log messages; they are not answers.
          while (taken < parsed.length && isLogMessage(parsed[taken])) taken++;
          if (taken >= parsed.length) return;
          onParsed = undefined;
          resolve(parsed[taken++]);
        };
        onParsed = check;
        check();
      });
    },
    request(id, method, params) {
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(
          `${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })}\n`,
        );
      });
    },
  };
}

/** Sends `initialize` (id 1) and `notifications/initialized`; the answer stays for `nextMessage`. */
export async function initialize(
  server: RawServer,
  protocolVersion = '2025-11-25',
  capabilities: Record<string, unknown> = {},
): Promise<void> {
  await server.request(1, 'initialize', {
    protocolVersion,
    capabilities,
    clientInfo: { name: 'raw', version: '1' },
  });
  server.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
}

function isLogMessage(message: unknown): boolean {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { method?: unknown }).method === 'notifications/message'
  );
}
