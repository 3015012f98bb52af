/**
 * The real thing for end-to-end tests: `school-mcp` (the built `dist/`) as a child process over
 * stdio, driven by the SDK's own client. Its stderr is collected line by line, so tests can read
 * the sign-in link the server printed and play the user who opens it.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { collectLines } from './stderr-lines.js';

export const MAIN_JS = resolve(import.meta.dirname, '../../dist/bin/school-mcp.js');

export interface StdioServer {
  readonly client: Client;
  readonly configDir: string;
  /** Every line the server wrote to stderr so far. */
  readonly stderr: string[];
  /** Resolves with the next stderr line matching `pattern` (including lines already seen, once). */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

export interface StdioServerOptions {
  readonly args: readonly string[];
  readonly era?: 'sessionful' | 'stateless';
  readonly capabilities?: ConstructorParameters<typeof Client>[1] extends infer O
    ? O extends { capabilities?: infer C }
      ? C
      : never
    : never;
  readonly configDir?: string;
  readonly env?: Readonly<Record<string, string>>;
}

export async function startStdioServer(options: StdioServerOptions): Promise<StdioServer> {
  const ownDir = options.configDir === undefined;
  const configDir = options.configDir ?? (await mkdtemp(join(tmpdir(), 'school-mcp-e2e-')));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN_JS, '--config-dir', configDir, ...options.args],
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '', HOME: configDir, ...options.env },
  });
  const lines = collectLines(transport.stderr as Readable | null);

  const client = new Client(
    { name: 'school-mcp-e2e', version: '1.0.0' },
    {
      capabilities: options.capabilities ?? {},
      ...(options.era === 'stateless' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
    },
  );
  await client.connect(transport);
  return {
    client,
    configDir,
    stderr: lines.stderr,
    waitForLine: lines.waitForLine,
    async close() {
      await client.close().catch(() => undefined);
      if (ownDir) await rm(configDir, { recursive: true, force: true });
    },
  };
}

/** The sign-in link a server printed, from one of its stderr lines. */
export function linkIn(line: string): string {
  const match = /(https?:\/\/\S+\/oauth\/authorize\?\S+)/.exec(line);
  if (!match) throw new Error(`no authorization link in: ${line}`);
  return match[1]!;
}
