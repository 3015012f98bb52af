/**
 * The real thing over HTTP: the built `school-mcp --http --port 0` as a child process, its URL and
 * launch secret read from stderr, driven by the SDK's `StreamableHTTPClientTransport`. It offers
 * the same face as `startStdioServer`, so one scenario suite runs over either transport.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN_JS, type StdioServer, type StdioServerOptions } from './mcp-stdio.js';
import { collectLines } from './stderr-lines.js';

export interface HttpServer extends StdioServer {
  /** The endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  /** The bearer secret the client sends (made at launch unless `secret` was given). */
  readonly secret: string;
  readonly child: ChildProcess;
  /** Everything written to stdout, which in HTTP mode should stay empty. */
  readonly stdout: string[];
  /** Settles with the exit code (or signal) once the process is gone. */
  readonly exited: Promise<number | NodeJS.Signals | null>;
}

export interface HttpServerOptions extends StdioServerOptions {
  /** A secret to choose (passed as SCHOOL_MCP_HTTP_SECRET); by default the server makes one. */
  readonly secret?: string;
  /** Extra headers the client sends on every request, next to the secret. */
  readonly headers?: Readonly<Record<string, string>>;
}

const URL_LINE = /serving over Streamable HTTP url="(http:\/\/[^"]+)"/;
const SECRET_LINE = /HTTP secret for this launch: (\S+)/;

/** The process alone, listening, before any client connects: for clients other than the SDK's 2.x one. */
export type HttpProcess = Omit<HttpServer, 'client'>;

export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const server = await spawnHttpServer(options);
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { ...options.headers, authorization: `Bearer ${server.secret}` } },
  });
  const client = new Client(
    { name: 'school-mcp-e2e', version: '1.0.0' },
    {
      capabilities: options.capabilities ?? {},
      ...(options.era === 'stateless' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
    },
  );
  try {
    await client.connect(transport);
  } catch (error) {
    await server.close();
    throw error;
  }
  return {
    ...server,
    client,
    async close() {
      await client.close().catch(() => undefined);
      await server.close();
    },
  };
}

export async function spawnHttpServer(
  options: Omit<HttpServerOptions, 'headers' | 'capabilities' | 'era'>,
): Promise<HttpProcess> {
  const ownDir = options.configDir === undefined;
  const configDir = options.configDir ?? (await mkdtemp(join(tmpdir(), 'school-mcp-e2e-')));
  const child = spawn(
    process.execPath,
    [MAIN_JS, '--config-dir', configDir, '--http', '--port', '0', ...options.args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: configDir,
        ...(options.secret === undefined ? {} : { SCHOOL_MCP_HTTP_SECRET: options.secret }),
        ...options.env,
      },
    },
  );
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  const lines = collectLines(child.stderr);
  const stdout: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk.toString('utf8')));
  const fail = async (error: unknown) => {
    child.kill('SIGKILL');
    await exited;
    if (ownDir) await rm(configDir, { recursive: true, force: true });
    throw error;
  };

  let url: string;
  let secret: string;
  try {
    const exitedEarly = exited.then((code) =>
      Promise.reject(new Error(`school-mcp exited (${code}) before listening; stderr:\n${lines.stderr.join('\n')}`)),
    );
    url = URL_LINE.exec(await Promise.race([lines.waitForLine(URL_LINE), exitedEarly]))![1]!;
    secret = options.secret ?? SECRET_LINE.exec(await Promise.race([lines.waitForLine(SECRET_LINE), exitedEarly]))![1]!;
  } catch (error) {
    return fail(error);
  }

  let closing: Promise<void> | undefined;
  return {
    configDir,
    stderr: lines.stderr,
    waitForLine: lines.waitForLine,
    url,
    secret,
    child,
    stdout,
    exited,
    close() {
      closing ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(timer);
        }
        if (ownDir) await rm(configDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}
