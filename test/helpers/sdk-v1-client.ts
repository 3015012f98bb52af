/**
 * `school-mcp` driven by the MCP TypeScript SDK 1.x client, which many desktop hosts embed, at
 * its default options: no declared capabilities, no progress token, a 60 s request timeout that
 * progress does not reset. Over stdio (the client starts the process) or Streamable HTTP.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { spawnHttpServer } from './mcp-http.js';
import type { McpTransport } from './mcp-server.js';
import { MAIN_JS } from './mcp-stdio.js';
import { collectLines } from './stderr-lines.js';

export interface V1Server {
  readonly client: Client;
  readonly configDir: string;
  readonly stderr: string[];
  close(): Promise<void>;
}

/** Whether a grant's tokens are in the store: an approval has been exchanged and kept. */
export async function hasStoredTokens(configDir: string): Promise<boolean> {
  const stores = (await readdir(configDir)).filter((file) => /^tokens-[0-9a-f]+\.json$/.test(file));
  for (const store of stores) {
    const record = JSON.parse(await readFile(join(configDir, store), 'utf8')) as Record<string, unknown>;
    if (record['tokens'] !== undefined) return true;
  }
  return false;
}

export interface V1ServerOptions {
  readonly transport: McpTransport;
  readonly args: readonly string[];
  /** Shared by servers started one after another, as a host that starts one per call does. */
  readonly configDir?: string;
}

const CLIENT_INFO = { name: 'sdk-1x-host', version: '1.0.0' };

export async function startV1Server(options: V1ServerOptions): Promise<V1Server> {
  const ownDir = options.configDir === undefined;
  const configDir = options.configDir ?? (await mkdtemp(join(tmpdir(), 'school-mcp-v1-')));
  const removeDir = async () => {
    if (ownDir) await rm(configDir, { recursive: true, force: true });
  };
  const client = new Client(CLIENT_INFO);

  if (options.transport === 'http') {
    const server = await spawnHttpServer({ args: options.args, configDir });
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${server.secret}` } },
    });
    try {
      await client.connect(transport);
    } catch (error) {
      await server.close();
      await removeDir();
      throw error;
    }
    return {
      client,
      configDir,
      stderr: server.stderr,
      async close() {
        await client.close().catch(() => undefined);
        await server.close();
        await removeDir();
      },
    };
  }

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN_JS, '--config-dir', configDir, ...options.args],
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '', HOME: configDir },
  });
  const lines = collectLines(transport.stderr as Readable | null);
  try {
    await client.connect(transport);
  } catch (error) {
    await removeDir();
    throw error;
  }
  return {
    client,
    configDir,
    stderr: lines.stderr,
    async close() {
      await client.close().catch(() => undefined);
      await removeDir();
    },
  };
}
