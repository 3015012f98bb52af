/**
 * A hosted deployment made of real parts, for the scale-out suite and the scale-out bench rows:
 * the sandbox school over HTTP (with generated staff and short-lived access tokens, so that
 * instances refresh), a grant store (a directory, or a real redis-server that keeps its data
 * across a restart), N `school-mcp --hosted` child processes, and, when asked, a real haproxy in
 * front of them whose URL is every instance's public URL. The load balancer's port is chosen
 * first, so the instances can be told where clients reach them before it starts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { freePort } from '../../../test/helpers/free-port.js';
import { startHaproxy, type Haproxy, type HaproxyBackend } from '../../../test/helpers/haproxy.js';
import { startRedisServer, type RedisServer } from '../../../test/helpers/redis-server.js';
import { collectLines, type LineLog } from '../child-lines.js';
import { SCHOOL_MCP_MAIN } from '../paths.js';

/** The readiness path of the instances, which the load balancer checks (contract of the readiness work). */
export const READINESS_PATH = '/readyz';

export interface ClusterOptions {
  readonly instances: number;
  readonly store: 'redis' | 'directory';
  /** haproxy in front of the instances; required for more than one instance. */
  readonly loadBalancer: boolean;
  /** Generated staff members at the sandbox, besides the three named ones. */
  readonly extraStaff: number;
  /**
   * Lifetime of the school's access tokens. An instance refreshes a token 30 s before it expires,
   * so a lifetime a little over 30 s makes every person's grant rotate every few seconds.
   */
  readonly schoolTokenTtlSeconds?: number;
  /** Where the secret file and a directory store go; the caller removes it. */
  readonly scratch: string;
  /** `debug` (the default) logs every tool call, which `toolCalls()` counts; a measurement uses `info`. */
  readonly logLevel?: 'debug' | 'info';
  /** Extra `school-mcp` arguments for every instance (e.g. `--toolsets`). */
  readonly instanceArgs?: readonly string[];
}

interface ClusterInstance {
  readonly name: string;
  /** The port it listens on, reached directly (not through the load balancer). */
  readonly port: number;
  readonly log: LineLog;
  /** Tool calls it has served so far, counted from its debug log. */
  toolCalls(): number;
  /** Whether its process is still running. */
  alive(): boolean;
  /** Sends `signal` and waits for the process to end. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

export interface Cluster {
  /** Where clients reach the deployment: the load balancer, or the one instance. */
  readonly publicUrl: string;
  readonly sandbox: RunningSandbox;
  readonly redis: RedisServer | undefined;
  readonly loadBalancer: Haproxy | undefined;
  readonly instances: readonly ClusterInstance[];
  close(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;
const TOOL_CALL_LINE = /\[debug\] tool call /;

/** Pure: the arguments of one instance. */
export function instanceArguments(input: {
  publicUrl: string;
  schoolUrl: string;
  clientId: string;
  secretFile: string;
  store: string;
  port: number;
  logLevel: 'debug' | 'info';
  extra: readonly string[];
}): string[] {
  return [
    '--hosted',
    '--public-url',
    input.publicUrl,
    '--school',
    input.schoolUrl,
    '--client-id',
    input.clientId,
    '--client-secret-file',
    input.secretFile,
    '--store',
    input.store,
    '--host',
    '127.0.0.1',
    '--port',
    String(input.port),
    '--log-level',
    input.logLevel,
    ...input.extra,
  ];
}

/** Pure: the address an instance printed in its "serving hosted" line. */
export function listeningPort(line: string): number | undefined {
  const match = /listening="http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
  return match === null ? undefined : Number(match[1]);
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function startInstance(
  name: string,
  args: string[],
  storeKey: string,
): Promise<{ instance: ClusterInstance; child: ChildProcess }> {
  const child = spawn(process.execPath, [SCHOOL_MCP_MAIN, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, SCHOOL_MCP_STORE_KEY: storeKey, SCHOOL_MCP_CLIENT_SECRET: '' },
  });
  const log = collectLines(child.stderr);
  const failed = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`${name} exited (${code}) before serving:\n${log.lines.join('\n')}`)),
    ),
  );
  const serving = await Promise.race([log.waitFor(/serving hosted/, START_TIMEOUT_MS), failed]);
  failed.catch(() => undefined);
  const port = listeningPort(serving);
  if (port === undefined) throw new Error(`${name} printed no listening address: ${serving}`);
  return {
    child,
    instance: {
      name,
      port,
      log,
      toolCalls: () => log.lines.filter((line) => TOOL_CALL_LINE.test(line)).length,
      alive: () => child.exitCode === null && child.signalCode === null,
      async kill(signal) {
        const done = exited(child);
        child.kill(signal);
        await done;
      },
    },
  };
}

async function untilAnswered(url: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const status = await fetch(url).then(
      (response) => (void response.body?.cancel(), response.status),
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline)
      throw new Error(`${url} did not answer 200 within ${START_TIMEOUT_MS} ms (last ${status})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  if (options.instances > 1 && !options.loadBalancer)
    throw new Error('several instances need the load balancer in front');
  const publicPort = await freePort();
  const publicUrl = `http://127.0.0.1:${publicPort}`;
  const sandbox = await startSandbox({
    extraStaff: options.extraStaff,
    ...(options.schoolTokenTtlSeconds === undefined ? {} : { accessTokenTtlSeconds: options.schoolTokenTtlSeconds }),
  });
  let redis: RedisServer | undefined;
  let loadBalancer: Haproxy | undefined;
  const children: ChildProcess[] = [];
  const close = async () => {
    await loadBalancer?.close();
    await Promise.all(
      children.map(async (child) => {
        const done = exited(child);
        child.kill('SIGTERM');
        await done;
      }),
    );
    await redis?.close();
    await sandbox.close();
  };
  try {
    const integration = sandbox.registerIntegration({
      clientName: 'school-mcp (scale-out)',
      redirectUris: [`${publicUrl}/oauth/callback`],
    });
    const secretFile = join(options.scratch, 'client-secret');
    await writeFile(secretFile, integration.clientSecret, { mode: 0o600 });
    if (options.store === 'redis') redis = await startRedisServer({ persistent: true });
    const store = redis?.url ?? join(options.scratch, 'store');
    const storeKey = randomBytes(32).toString('base64');
    const start = (index: number) =>
      startInstance(
        `mcp${index + 1}`,
        instanceArguments({
          publicUrl,
          schoolUrl: sandbox.url,
          clientId: integration.clientId,
          secretFile,
          store,
          port: options.loadBalancer ? 0 : publicPort,
          logLevel: options.logLevel ?? 'debug',
          // Every simulated person connects from 127.0.0.1: one address registering all their clients.
          extra: ['--registration-limit', '1000000', ...(options.instanceArgs ?? [])],
        }),
        storeKey,
      ).then((result) => (children.push(result.child), result.instance));
    // All at once on an empty store, as an orchestrator starts them: one of them creates the
    // authorization server's secrets and the others read that one's (create-if-absent).
    const started = await Promise.all(Array.from({ length: options.instances }, (_, index) => start(index)));
    if (options.loadBalancer) {
      const backends: HaproxyBackend[] = started.map(({ name, port }) => ({ name, port }));
      loadBalancer = await startHaproxy({ port: publicPort, backends, checkPath: READINESS_PATH });
    }
    await untilAnswered(`${publicUrl}/.well-known/oauth-authorization-server`);
    return { publicUrl, sandbox, redis, loadBalancer, instances: started, close };
  } catch (error) {
    await close();
    throw error;
  }
}
