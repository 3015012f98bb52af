/**
 * A real Debian haproxy in front of several hosted instances, for the scale-out tests: HTTP mode,
 * round-robin with no stickiness, on a free loopback port, with its configuration written to a
 * temp dir. A request that could not reach a backend is sent to another one (`retry-on
 * conn-failure` with `option redispatch`); a request a backend already took is never replayed.
 * With `checkPath`, backends are health-checked and taken out while they fail it. Readiness is
 * the frontend accepting a connection, polled. Without haproxy the suites skip saying how to
 * enable them; under `CI=true` they fail instead.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { describeNeeding } from './suite-gate.js';
import { exited, findSystemBinary, requirePath, spawnUntilReady } from './system-binary.js';

const HAPROXY = findSystemBinary(
  'haproxy',
  'SCHOOL_MCP_TEST_HAPROXY',
  ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'],
  'no haproxy for the scale-out tests: apt-get install haproxy, or set SCHOOL_MCP_TEST_HAPROXY to its path',
);

/** A suite that needs haproxy (and redis-server, which the scale-out suites also start). */
export function describeWithHaproxy(name: string, body: () => void): void {
  describeNeeding(HAPROXY, name, body);
}

export interface HaproxyBackend {
  readonly name: string;
  readonly port: number;
}

export interface HaproxyOptions {
  readonly backends: readonly HaproxyBackend[];
  /**
   * The port to listen on, when the instances must be told the public URL before the load balancer
   * starts (take one from `freePort()`); a free one otherwise.
   */
  readonly port?: number;
  /** Health-check every backend with `GET checkPath` (e.g. `/readyz`); a backend is out after 3 failures, back after 1 pass. */
  readonly checkPath?: string;
  /** Between two health checks of one backend; 250 ms unless set. */
  readonly checkIntervalMs?: number;
}

export interface Haproxy {
  readonly port: number;
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** The configuration it runs, for a failing test's message. */
  readonly config: string;
  close(): Promise<void>;
}

const READY_TIMEOUT_MS = 15_000;

/** The configuration: pure, so that a test can read what the load balancer does. */
export function haproxyConfig(port: number, options: HaproxyOptions): string {
  const interval = options.checkIntervalMs ?? 250;
  const check = options.checkPath === undefined ? '' : ` check inter ${interval}ms fall 3 rise 1`;
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 120s',
    '  timeout server 120s',
    '  timeout http-keep-alive 5s',
    // Without it a check's answer must come within `inter`; a loaded machine answers later than 250 ms.
    '  timeout check 2s',
    '  retries 3',
    '  retry-on conn-failure',
    '  option redispatch 1',
    'frontend mcp',
    `  bind 127.0.0.1:${port}`,
    '  default_backend instances',
    'backend instances',
    '  balance roundrobin',
    ...(options.checkPath === undefined ? [] : [`  option httpchk GET ${options.checkPath}`]),
    ...options.backends.map((backend) => `  server ${backend.name} 127.0.0.1:${backend.port}${check}`),
    '',
  ].join('\n');
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function launch(
  binary: string,
  port: number,
  dir: string,
  options: HaproxyOptions,
): Promise<{ child: ChildProcess; config: string } | undefined> {
  const config = haproxyConfig(port, options);
  const file = join(dir, 'haproxy.cfg');
  await writeFile(file, config);
  const child = await spawnUntilReady(
    binary,
    ['-f', file, '-db'],
    () => accepts(port),
    `haproxy on port ${port}`,
    READY_TIMEOUT_MS,
  );
  return child === undefined ? undefined : { child, config };
}

export async function startHaproxy(options: HaproxyOptions): Promise<Haproxy> {
  const binary = requirePath(HAPROXY);
  const dir = await mkdtemp(join(tmpdir(), 'school-mcp-haproxy-'));
  let started: { child: ChildProcess; config: string } | undefined;
  let port = 0;
  for (let attempt = 0; attempt < 5 && started === undefined; attempt += 1) {
    port = options.port ?? (await freePort());
    started = await launch(binary, port, dir, options);
    if (started === undefined && options.port !== undefined)
      throw new Error(`haproxy could not listen on port ${options.port}`);
  }
  if (started === undefined) throw new Error('haproxy exited at start on five free ports in a row');
  const { child, config } = started;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    config,
    async close() {
      child.kill('SIGTERM');
      await exited(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
