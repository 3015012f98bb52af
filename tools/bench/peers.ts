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
/** The generated Streamable HTTP server's own dependencies (see its package.json for why apart). */
const GENERATED_HTTP_DIR = join(BENCH_PACKAGE_DIR, 'generated-http');

/** `npm ci` of the bench's manifests, each when a dependency it names is not installed; the lockfiles pin every version. */
export async function installPeers(): Promise<void> {
  for (const directory of [BENCH_PACKAGE_DIR, GENERATED_HTTP_DIR]) {
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const nodeModules = join(directory, 'node_modules');
    if (
      Object.entries(manifest.dependencies).every(([name, version]) => installedVersion(name, nodeModules) === version)
    )
      continue;
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    await mustRun(npm, ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: directory });
  }
}

export function installedVersion(name: string, nodeModules = BENCH_NODE_MODULES): string {
  const manifest = join(nodeModules, name, 'package.json');
  return existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
    : 'not installed';
}

/** The SDK the generated Streamable HTTP server runs on, for the report. */
export function generatedHttpSdkVersion(): string {
  return installedVersion('@modelcontextprotocol/sdk', join(GENERATED_HTTP_DIR, 'node_modules'));
}

/** Runtime conversion: the document by URL or file, the API base, the token as a header. */
export function ivotobyLaunch(
  spec: string,
  apiBaseUrl: string,
  token: string,
  extra: readonly string[] = [],
): LaunchSpec {
  return {
    script: IVOTOBY_BIN,
    args: [
      '--openapi-spec',
      spec,
      '--api-base-url',
      apiBaseUrl,
      '--headers',
      `Authorization:Bearer ${token}`,
      ...extra,
    ],
  };
}

/**
 * Generates a server project from `input` into `directory` and builds it; returns how to start it.
 * The Streamable HTTP flavour is a project of its own (Hono and its Node adapter, among others).
 */
export async function generatePeer(
  input: string,
  directory: string,
  apiBaseUrl: string,
  transport: 'stdio' | 'streamable-http' = 'stdio',
): Promise<string> {
  await rm(directory, { recursive: true, force: true });
  await mkdir(directory, { recursive: true });
  await mustRun(process.execPath, [
    GENERATOR_BIN,
    '--input',
    input,
    '--output',
    directory,
    '--server-name',
    'generated-peer',
    '--base-url',
    apiBaseUrl,
    '--transport',
    transport,
  ]);
  // The generated project's dependencies are the bench's pinned ones rather than a fresh `npm install`.
  const nodeModules = transport === 'stdio' ? BENCH_NODE_MODULES : join(GENERATED_HTTP_DIR, 'node_modules');
  await symlink(nodeModules, join(directory, 'node_modules'), 'dir');
  await mustRun(process.execPath, [TYPESCRIPT_BIN, '-p', directory]);
  return join(directory, 'build/index.js');
}

/**
 * The generated server takes its base URL and an OAuth access token from the environment (its
 * docs/oauth2-configuration.md), and the HTTP flavour its port too.
 */
export function generatedLaunch(
  script: string,
  directory: string,
  apiBaseUrl: string,
  token: string,
  port?: number,
): LaunchSpec {
  const env = {
    API_BASE_URL: apiBaseUrl,
    OAUTH_TOKEN_OAUTH2: token,
    ...(port === undefined ? {} : { PORT: String(port) }),
  };
  return { script, args: [], cwd: directory, env };
}
