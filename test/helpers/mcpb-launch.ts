/**
 * What a desktop host does with an installed bundle's manifest: substitute `${__dirname}` and
 * `${user_config.KEY}` (the user's value, else the declared default) into `mcp_config`, then start
 * the command. Only the substitutions school-mcp's manifest can use are known; any other `${...}`
 * is refused rather than passed on literally.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Readable } from 'node:stream';
import { collectLines, type LineCollector } from './stderr-lines.js';

interface UserConfigEntry {
  readonly required?: boolean;
  readonly default?: string | number | boolean | readonly string[];
}

export interface LaunchManifest {
  readonly server: {
    readonly mcp_config: {
      readonly command: string;
      readonly args?: readonly string[];
      readonly env?: Readonly<Record<string, string>>;
    };
  };
  readonly user_config?: Readonly<Record<string, UserConfigEntry>>;
}

export interface LaunchCommand {
  readonly command: string;
  readonly args: string[];
  readonly env: Record<string, string>;
}

/** Pure: the command a host runs for `manifest` installed at `dirname`, with the user's answers. */
export function resolveMcpConfig(
  manifest: LaunchManifest,
  dirname: string,
  userConfig: Readonly<Record<string, string>>,
): LaunchCommand {
  const declared = manifest.user_config ?? {};
  for (const [key, entry] of Object.entries(declared)) {
    if (entry.required && userConfig[key] === undefined) throw new Error(`user_config.${key} is required`);
  }
  const substitute = (text: string) =>
    text.replace(/\$\{([^}]+)\}/g, (_whole, name: string) => {
      if (name === '__dirname') return dirname;
      const key = /^user_config\.(.+)$/.exec(name)?.[1];
      if (key === undefined || !(key in declared)) throw new Error(`unknown substitution \${${name}}`);
      const value = userConfig[key] ?? declared[key]!.default ?? '';
      return Array.isArray(value) ? value.join(' ') : String(value);
    });
  const config = manifest.server.mcp_config;
  return {
    command: substitute(config.command),
    args: (config.args ?? []).map(substitute),
    env: Object.fromEntries(Object.entries(config.env ?? {}).map(([name, value]) => [name, substitute(value)])),
  };
}

export interface LaunchedServer extends LineCollector {
  readonly client: Client;
  close(): Promise<void>;
}

/** Starts the resolved command as the host would, with only PATH and HOME from this process. */
export async function launchAsHost(launch: LaunchCommand, home: string): Promise<LaunchedServer> {
  const transport = new StdioClientTransport({
    command: launch.command,
    args: launch.args,
    env: { PATH: process.env.PATH ?? '', HOME: home, ...launch.env },
    stderr: 'pipe',
  });
  const lines = collectLines(transport.stderr as Readable | null);
  const client = new Client({ name: 'mcpb-host', version: '1.0.0' });
  await client.connect(transport);
  return { client, ...lines, close: () => client.close().catch(() => undefined) };
}
