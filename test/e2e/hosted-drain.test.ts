/**
 * `school-mcp --hosted --demo` as a real process stopped with SIGTERM, as an orchestrator stops
 * an instance behind a load balancer: what was in flight is answered, `/readyz` says draining,
 * new connections are refused, and the process exits 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAIN_JS } from '../helpers/mcp-stdio.js';
import { collectLines, type LineCollector } from '../helpers/stderr-lines.js';
import { openSocket } from '../transports/support/raw-http.js';

interface Instance {
  readonly child: ChildProcess;
  readonly lines: LineCollector;
  readonly port: number;
  readonly exited: Promise<number | null>;
}

const children: ChildProcess[] = [];
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

async function startInstance(drainSeconds: string): Promise<Instance> {
  const child = spawn(process.execPath, [MAIN_JS, '--hosted', '--demo', '--drain-seconds', drainSeconds], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, SCHOOL_MCP_STORE_KEY: '' },
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = collectLines(child.stderr);
  const mcpUrl = new URL(/MCP endpoint: +(\S+)/.exec(await lines.waitForLine(/MCP endpoint:/))![1]!);
  await lines.waitForLine(/sandbox school:/);
  return { child, lines, port: Number(mcpUrl.port), exited };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Whether a new connection is refused (the listener is closed). */
function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

const REGISTRATION = JSON.stringify({
  client_name: 'drain test',
  redirect_uris: ['http://127.0.0.1:47011/callback'],
  token_endpoint_auth_method: 'none',
});

/** The head of a registration whose body is sent later; the server says `100 Continue` once the request is in its hands. */
function registrationHead(port: number): string {
  return `POST /oauth/register HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(REGISTRATION)}\r\nExpect: 100-continue\r\n\r\n`;
}

describe('school-mcp --hosted stopped with SIGTERM', () => {
  it('SCL-04 answers the request in flight, says draining on /readyz, refuses new connections, and exits 0', async () => {
    // The longest drain the option allows: the steps below, after SIGTERM, then never race it, and
    // the process still exits as soon as the last request is answered.
    const instance = await startInstance('600');
    const { port } = instance;
    // In flight: the server has the registration's head and waits for its body.
    const inFlight = await openSocket(port, sockets);
    inFlight.socket.write(registrationHead(port));
    await until(() => inFlight.received().includes('100 Continue'));
    // A readiness check whose head is not complete yet: its connection is busy, so the drain keeps it.
    const check = await openSocket(port, sockets);
    check.socket.write(`GET /readyz HTTP/1.1\r\nHost: 10.1.2.3\r\n`);
    // One full exchange after it: the server has read the check's first line by the time this is answered.
    const barrier = await openSocket(port, sockets);
    barrier.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    await barrier.closed;
    expect(barrier.received(), JSON.stringify(barrier.received())).toMatch(/^HTTP\/1\.1 200[\s\S]*\{"status":"ok"\}$/);

    instance.child.kill('SIGTERM');
    await instance.lines.waitForLine(/draining/);
    expect(await connectionRefused(port)).toBe(true);

    check.socket.write('\r\n');
    await check.closed;
    expect(check.received()).toMatch(/^HTTP\/1\.1 503[\s\S]*\r\n\r\n\{"status":"draining"\}$/);
    expect(check.received()).toMatch(/\r\nconnection: close\r\n/i);

    inFlight.socket.write(REGISTRATION);
    await inFlight.closed;
    expect(inFlight.received()).toMatch(/HTTP\/1\.1 201 Created[\s\S]*"client_id":/);

    expect(await instance.exited).toBe(0);
    expect(instance.lines.stderr.join('\n')).toMatch(/stopped/);
    expect(instance.lines.stderr.join('\n')).not.toMatch(/were cut/);
  });

  it('SCL-04 cuts what is still running after --drain-seconds, and still exits 0', async () => {
    const instance = await startInstance('0.5');
    const stuck = await openSocket(instance.port, sockets);
    stuck.socket.write(registrationHead(instance.port));
    await until(() => stuck.received().includes('100 Continue'));
    instance.child.kill('SIGTERM');
    await stuck.closed;
    expect(stuck.received()).not.toMatch(/HTTP\/1\.1 201/);
    expect(await instance.exited).toBe(0);
    expect(instance.lines.stderr.join('\n')).toMatch(/were cut/);
  });

  it('SCL-04 stopped the moment it says "serving hosted", still drains and exits 0', async () => {
    const child = spawn(process.execPath, [MAIN_JS, '--hosted', '--demo'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, SCHOOL_MCP_STORE_KEY: '' },
    });
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // As soon as the line is in: the listener it needs is there before the line is written.
    await new Promise<void>((resolve) => {
      let seen = '';
      child.stderr.on('data', (chunk: Buffer) => {
        seen += chunk.toString('utf8');
        if (/serving hosted/.test(seen) && child.signalCode === null && !child.killed) {
          child.kill('SIGTERM');
          resolve();
        }
      });
    });
    const stderr = collectLines(child.stderr);
    expect(await exited).toBe(0);
    expect(child.signalCode).toBeNull();
    expect(stderr.stderr.join('\n')).toMatch(/stopped/);
  });
});
