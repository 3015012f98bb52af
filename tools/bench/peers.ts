/**
 * The two servers a user would pick instead of school-mcp, at the versions pinned in
 * `tools/bench/package.json`: `@ivotoby/openapi-mcp-server` converts the document at run time;
 * `openapi-mcp-generator` writes a server project that is then built and started as its
 * generated package.json says (`tsc`, then `node build/index.js`), with the pinned dependencies.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { LaunchSpec } from './mcp-process.js';
import { BENCH_NODE_MODULES, BENCH_PACKAGE_DIR } from './paths.js';
import { mustRun } from './run-command.js';

export const IVOTOBY_PACKAGE = '@ivotoby/openapi-mcp-server';
export const GENERATOR_PACKAGE = 'openapi-mcp-generator';

const IVOTOBY_BIN = join(BENCH_NODE_MODULES, IVOTOBY_PACKAGE, 'bin/mcp-server.js');
const GENERATOR_BIN = join(BENCH_NODE_MODULES, GENERATOR_PACKAGE, 'bin/openapi-mcp-generator.js');
const TYPESCRIPT_BIN = join(BENCH_NODE_MODULES, 'typescript/bin/tsc');

/** `npm ci` of the bench's own manifest, once; the lockfile pins every version. */
export async function installPeers(): Promise<void> {
  if (existsSync(join(BENCH_NODE_MODULES, '.package-lock.json')) && existsSync(IVOTOBY_BIN) && existsSync(GENERATOR_BIN)) return;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  await mustRun(npm, ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: BENCH_PACKAGE_DIR });
}

export function installedVersion(name: string): string {
  const manifest = join(BENCH_NODE_MODULES, name, 'package.json');
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version : 'not installed';
}

/** Runtime conversion: the document by URL or file, the API base, the token as a header. */
export function ivotobyLaunch(spec: string, apiBaseUrl: string, token: string, extra: readonly string[] = []): LaunchSpec {
  return { script: IVOTOBY_BIN, args: ['--openapi-spec', spec, '--api-base-url', apiBaseUrl, '--headers', `Authorization:Bearer ${token}`, ...extra] };
}

/** Generates a server project from `input` into `directory` and builds it; returns how to start it. */
export async function generatePeer(input: string, directory: string, apiBaseUrl: string): Promise<string> {
  await rm(directory, { recursive: true, force: true });
  await mkdir(directory, { recursive: true });
  await mustRun(process.execPath, [GENERATOR_BIN, '--input', input, '--output', directory, '--server-name', 'generated-peer', '--base-url', apiBaseUrl]);
  // The generated project's dependencies are the bench's pinned ones rather than a fresh `npm install`.
  await symlink(BENCH_NODE_MODULES, join(directory, 'node_modules'), 'dir');
  await mustRun(process.execPath, [TYPESCRIPT_BIN, '-p', directory]);
  return join(directory, 'build/index.js');
}

/** The generated server takes its base URL and an OAuth access token from the environment (its docs/oauth2-configuration.md). */
export function generatedLaunch(script: string, directory: string, apiBaseUrl: string, token: string): LaunchSpec {
  return { script, args: [], cwd: directory, env: { API_BASE_URL: apiBaseUrl, OAUTH_TOKEN_OAUTH2: token } };
}
