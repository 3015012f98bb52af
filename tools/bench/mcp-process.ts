/**
 * One MCP server as a child process over stdio, driven by the SDK's client the way a host drives
 * it. Starting one times the cold start: from spawn to the answer of the first `tools/list`. The
 * answer is timed as it arrives and then checked the way a host checks it, so a server whose list
 * a host would reject still gets its time, with the rejection beside it.
 */
import type { StandardSchemaV1 } from '@modelcontextprotocol/client';
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
  /** Why the SDK's client refuses that answer, when it does (a host would then list no tools). */
  readonly listRejected: string | undefined;
  /**
   * The list as the SDK's client hands it to a host: fields outside the MCP schema dropped. The
   * wire answer when the client refuses it.
   */
  readonly hostList: ToolList;
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
    const firstList = (await client.request({ method: 'tools/list', params: {} }, ANY_RESULT)) as ToolList;
    const coldStartMs = performance.now() - started;
    if (!Array.isArray(firstList?.tools)) throw new Error('the tools/list answer has no tools array');
    const checked = await client.listTools().then(
      (list) => ({ hostList: list as ToolList, listRejected: undefined }),
      (error: unknown) => ({
        hostList: firstList,
        listRejected: (error instanceof Error ? error.message : String(error)).slice(0, 300),
      }),
    );
    const { hostList, listRejected } = checked;
    return {
      client,
      pid: transport.pid ?? -1,
      stderr,
      coldStartMs,
      firstList,
      listRejected,
      hostList,
      close: () => client.close().catch(() => undefined),
    };
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new Error(
      `${spec.script} did not serve tools/list: ${error instanceof Error ? error.message : String(error)}\n${stderr.lines.slice(-15).join('\n')}`,
    );
  }
}

/** Accepts any result: the answer is timed first and validated apart. */
const ANY_RESULT: StandardSchemaV1 = {
  '~standard': { version: 1, vendor: 'school-mcp-bench', validate: (value: unknown) => ({ value }) },
};

/** The resident set of a process in bytes, from /proc (Linux). */
export async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib) * 1024;
}
