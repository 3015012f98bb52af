/**
 * A real Debian redis-server for the Redis store tests, on a free loopback port with a temp dir,
 * nothing saved unless asked (`persistent`). Redis has no `--port 0`, so the port is one the kernel just handed to a
 * socket that was then closed; if another process takes it first, the start is tried again on a
 * new one. Readiness is a PING answered with PONG, polled, never a sleep. Without redis-server
 * the suites skip saying how to enable them; under `CI=true` they fail instead.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { describeNeeding } from './suite-gate.js';
import { exited, findSystemBinary, requirePath, spawnUntilReady } from './system-binary.js';

const REDIS_SERVER = findSystemBinary(
  'redis-server',
  'SCHOOL_MCP_TEST_REDIS_SERVER',
  ['/usr/bin/redis-server', '/usr/sbin/redis-server', '/usr/local/bin/redis-server'],
  'no redis-server for the Redis store tests: apt-get install redis-server, or set SCHOOL_MCP_TEST_REDIS_SERVER to its path',
);

/** A suite that needs redis-server: skipped with the way to enable it where there is none, failed under CI. */
export function describeWithRedis(name: string, body: () => void): void {
  describeNeeding(REDIS_SERVER, name, body);
}

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:PORT/0`. */
  readonly url: string;
  /** Stops the server and waits for its exit; the port stays this server's to restart on. */
  stop(): Promise<void>;
  /** Starts it again on the same port, and waits for PING. */
  restart(): Promise<void>;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
}

export interface RedisServerOptions {
  /** `--requirepass`. */
  readonly password?: string;
  /** Keep an append-only file in the server's directory, so that a restart loses nothing (`appendfsync always`). */
  readonly persistent?: boolean;
}

const READY_TIMEOUT_MS = 15_000;

/** Whether the server at `port` answers PING (after AUTH when it has a password). */
function answersPing(port: number, password: string | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write(`${password === undefined ? '' : `AUTH ${password}\r\n`}PING\r\n`));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('+PONG\r\n')) done(true);
      else if (reply.includes('-')) done(false);
    });
  });
}

async function launch(
  binary: string,
  port: number,
  dir: string,
  options: RedisServerOptions,
): Promise<ChildProcess | undefined> {
  const persistence =
    options.persistent === true ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    ...persistence,
    '--daemonize',
    'no',
    '--protected-mode',
    'yes',
  ];
  if (options.password !== undefined) args.push('--requirepass', options.password);
  return spawnUntilReady(
    binary,
    args,
    () => answersPing(port, options.password),
    `redis-server on port ${port}`,
    READY_TIMEOUT_MS,
  );
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const binary = requirePath(REDIS_SERVER);
  const dir = await mkdtemp(join(tmpdir(), 'school-mcp-redis-'));
  let port = 0;
  let child: ChildProcess | undefined;
  for (let attempt = 0; attempt < 5 && child === undefined; attempt += 1) {
    port = await freePort();
    child = await launch(binary, port, dir, options);
  }
  if (child === undefined) throw new Error('redis-server exited at start on five free ports in a row');
  let running: ChildProcess | undefined = child;

  async function stop(): Promise<void> {
    const current = running;
    running = undefined;
    if (current === undefined) return;
    current.kill('SIGTERM');
    await exited(current);
  }

  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    stop,
    async restart() {
      await stop();
      running = await launch(binary, port, dir, options);
      if (running === undefined) throw new Error(`redis-server did not start again on port ${port}`);
    },
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
