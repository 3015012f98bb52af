/**
 * System programs the suites start for real (redis-server, haproxy): where to find one, and how a
 * started one is awaited. Found through an environment variable naming its path, else PATH, else
 * the places Debian and others install it; suites that need it are gated by `suite-gate.ts`.
 * Readiness is polled, never slept for.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Prerequisite } from './suite-gate.js';

export interface SystemBinary extends Prerequisite {
  /** The program's path, or undefined where this machine has none. */
  readonly path: string | undefined;
}

export function findSystemBinary(
  name: string,
  envVariable: string,
  usualPaths: readonly string[],
  howToEnable: string,
): SystemBinary {
  const path = locate(name, envVariable, usualPaths);
  return { path, available: path !== undefined, what: `${name} to run`, howToEnable };
}

function locate(name: string, envVariable: string, usualPaths: readonly string[]): string | undefined {
  const named = process.env[envVariable];
  if (named) return existsSync(named) ? named : undefined;
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir !== '' && existsSync(join(dir, name))) return join(dir, name);
  }
  return usualPaths.find((path) => existsSync(path));
}

export function requirePath(binary: SystemBinary): string {
  if (binary.path === undefined) throw new Error(binary.howToEnable);
  return binary.path;
}

export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

const POLL_MS = 25;

/**
 * Starts the program and polls `isReady` until it answers true: the child, or undefined when the
 * program exited first (a port taken by someone else, say), so the caller can try another port.
 */
export async function spawnUntilReady(
  path: string,
  args: readonly string[],
  isReady: () => Promise<boolean>,
  what: string,
  timeoutMs: number,
): Promise<ChildProcess | undefined> {
  const child = spawn(path, [...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.resume();
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return undefined;
    if (await isReady()) return child;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  child.kill('SIGKILL');
  throw new Error(`${what} was not ready within ${timeoutMs} ms`);
}
