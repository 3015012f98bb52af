/**
 * One MCP server as a child process over stdio, driven by the SDK's client the way a host drives
 * it. Starting one times the cold start: from spawn to the answer of the first `tools/list`.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { collectLines, type LineLog } from './child-lines.js';

/** How to launch a server: always `node <script> ...`, so that the process measured is the server itself. */
export interface LaunchSpec {
  readonly script: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export interface ToolList {
  readonly tools: readonly Record<string, unknown>[];
}

export interface RunningMcpServer {
  readonly client: Client;
  readonly pid: number;
  readonly stderr: LineLog;
  /** Milliseconds from spawn to the answer of the first `tools/list`. */
  readonly coldStartMs: number;
  readonly firstList: ToolList;
  close(): Promise<void>;
}

export async function startMcpServer(spec: LaunchSpec): Promise<RunningMcpServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [spec.script, ...spec.args],
    stderr: 'pipe',
    env: { PATH: process.env['PATH'] ?? '', ...spec.env },
    ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
  });
  const stderr = collectLines(transport.stderr as Readable | null);
  const client = new Client({ name: 'school-mcp-bench', version: '1.0.0' });
  const started = performance.now();
  try {
    await client.connect(transport);
    const firstList = (await client.listTools()) as ToolList;
    const coldStartMs = performance.now() - started;
    return {
      client,
      pid: transport.pid ?? -1,
      stderr,
      coldStartMs,
      firstList,
      close: () => client.close().catch(() => undefined),
    };
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new Error(`${spec.script} did not serve tools/list: ${error instanceof Error ? error.message : String(error)}\n${stderr.lines.slice(-15).join('\n')}`);
  }
}

/** The resident set of a process in bytes, from /proc (Linux). */
export async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib) * 1024;
}
