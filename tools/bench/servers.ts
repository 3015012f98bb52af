/**
 * How each server of the run is started and called: school-mcp (signed in beforehand in its own
 * config directory), the bare SDK server, and the peers with a token handed to them.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { collectLines } from './child-lines.js';
import type { CallOnce } from './latency.js';
import type { LaunchSpec, ToolList } from './mcp-process.js';
import { BENCH_DIST, SCHOOL_MCP_MAIN } from './paths.js';

/** The read operation every server calls in the latency and memory rows, and its direct twin. */
export const READ_OPERATION = { path: '/api/v1/members', query: 'per_page=10', args: { per_page: 10 } } as const;
const READ_TOOL_NAMES = ['list_members', 'lst-members'];

export function schoolMcpLaunch(schoolUrl: string, configDir: string, extra: readonly string[]): LaunchSpec {
  return {
    script: SCHOOL_MCP_MAIN,
    args: ['--school', schoolUrl, '--config-dir', configDir, '--no-browser', ...extra],
    env: { HOME: configDir },
  };
}

export function bareLaunch(toolsFile: string): LaunchSpec {
  return { script: join(BENCH_DIST, 'bare-server.js'), args: [toolsFile] };
}

/**
 * The bare SDK server serving the read tool with the direct request, over stdio or (with `httpPort`)
 * Streamable HTTP; the token goes by environment, out of the process list.
 */
export function bareCallLaunch(
  toolsFile: string,
  schoolUrl: string,
  token: string,
  readTool: string,
  httpPort?: number,
): LaunchSpec {
  const http = httpPort === undefined ? [] : ['--http', String(httpPort)];
  return {
    script: join(BENCH_DIST, 'bare-server.js'),
    args: [toolsFile, '--school', schoolUrl, '--read-tool', readTool, '--read-path', READ_OPERATION.path, ...http],
    env: { BENCH_BARE_TOKEN: token },
  };
}

/** The read tool as each server names it (`lst-members` is the peer's abbreviation). */
export function readToolName(list: ToolList): string {
  const names = list.tools.map((tool) => String(tool['name']));
  const name = READ_TOOL_NAMES.find((candidate) => names.includes(candidate));
  if (name === undefined) throw new Error(`no tool for GET ${READ_OPERATION.path} among ${names.length} tools`);
  return name;
}

export function toolCaller(client: Client, name: string): CallOnce {
  return async () => {
    const result = (await client.callTool({ name, arguments: { ...READ_OPERATION.args } })) as {
      isError?: boolean;
      content?: { text?: string }[];
    };
    if (result.isError)
      throw new Error(
        `${name} answered an error: ${(result.content ?? [])
          .map((block) => block.text ?? '')
          .join(' ')
          .slice(0, 200)}`,
      );
  };
}

/** The same request without any MCP server: undici, keep-alive, the same token, the body parsed. */
export function directCaller(schoolUrl: string, token: string): { call: CallOnce; close(): Promise<void> } {
  const dispatcher = new Agent({ connections: 32 });
  const url = `${schoolUrl}${READ_OPERATION.path}?${READ_OPERATION.query}`;
  return {
    call: async () => {
      const response = await request(url, {
        dispatcher,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });
      await response.body.json();
      if (response.statusCode !== 200) throw new Error(`GET ${READ_OPERATION.path} answered ${response.statusCode}`);
    },
    close: () => dispatcher.close(),
  };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface HttpMcpServer {
  readonly client: Client;
  close(): Promise<void>;
}

/**
 * A server already listening on HTTP, started by `launch`, reached with the SDK's Streamable HTTP
 * client. Waits until the endpoint answers or the process ends.
 */
export async function connectOverHttp(
  child: ChildProcess,
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<HttpMcpServer> {
  const log = collectLines(child.stderr);
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline && child.exitCode === null) {
    const client = new Client({ name: 'school-mcp-bench', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      return {
        client,
        async close() {
          await client.close().catch(() => undefined);
          if (child.exitCode === null) {
            child.kill('SIGTERM');
            await once(child, 'exit');
          }
        },
      };
    } catch (error) {
      lastError = error;
      await client.close().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  if (child.exitCode === null) child.kill('SIGTERM');
  const why =
    child.exitCode !== null ? `the process exited with ${child.exitCode}` : `nothing answered within ${timeoutMs} ms`;
  throw new Error(
    `${url}: ${why} (${lastError instanceof Error ? lastError.message : 'no answer'}); stderr: ${log.lines.slice(-5).join(' | ')}`,
  );
}

export function spawnServer(spec: LaunchSpec): ChildProcess {
  return spawn(process.execPath, [spec.script, ...spec.args], {
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { PATH: process.env['PATH'] ?? '', ...spec.env },
    ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
  });
}
