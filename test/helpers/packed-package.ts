/**
 * The package as a user gets it: `npm pack` of the built tree, installed from the tarball into a
 * folder of its own with production dependencies only, its bin run directly (so its shebang is
 * what starts it) with nothing of this process's environment but PATH and HOME.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);
// npm is a .cmd script on Windows, which Node starts only through a shell.
const shell = process.platform === 'win32';
const REPOSITORY_ROOT = resolve(import.meta.dirname, '../..');

/**
 * Packs the already built tree (no scripts: rebuilding dist/ would race other e2e tests): the
 * bridge, or the workspace package at `packageDir`.
 */
export async function packTarball(destination: string, packageDir = REPOSITORY_ROOT): Promise<string> {
  await run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', destination], {
    cwd: packageDir,
    shell,
  });
  const name = (await readdir(destination)).find((file) => file.endsWith('.tgz'));
  if (!name) throw new Error('npm pack wrote no tarball');
  return join(destination, name);
}

const INSTALL_FLAGS = ['--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'];

/** `npm install <tarball>` into an empty project at `folder`; returns the installed bin. */
export async function installLocally(tarball: string, folder: string): Promise<string> {
  await writeFile(join(folder, 'package.json'), '{ "private": true }\n');
  await run('npm', ['install', ...INSTALL_FLAGS, tarball], { cwd: folder, shell });
  return join(folder, 'node_modules', '.bin', 'school-mcp');
}

/** `npm install --global <tarball>` under its own prefix; returns the bin on that prefix's PATH. */
export async function installGlobally(tarball: string, prefix: string): Promise<string> {
  await run('npm', ['install', '--global', '--prefix', prefix, ...INSTALL_FLAGS, tarball], { cwd: prefix, shell });
  return join(prefix, 'bin', 'school-mcp');
}

/**
 * `npx --package=<tarball> school-mcp ...args` in `cwd`, as the docs' npx entry runs it from the
 * registry. npx installs into a folder of npm's cache of its own for each package it is given, so
 * each run of this suite, with its new temporary tarball path, used to leave one more copy of the
 * production tree (about 45 MB) in the user's cache; the folder is removed once the run is over.
 */
export async function runWithNpx(
  tarball: string,
  args: readonly string[],
  cwd: string,
): Promise<{ stdout: string; removedInstalls: string[] }> {
  const outcome = await run('npx', ['--yes', '--prefer-offline', `--package=${tarball}`, 'school-mcp', ...args], {
    cwd,
    shell,
  }).then(
    ({ stdout }) => ({ stdout }),
    (error: unknown) => ({ error }),
  );
  const removedInstalls = await npxInstallsOf(tarball);
  for (const folder of removedInstalls) await rm(folder, { recursive: true, force: true });
  if ('error' in outcome) throw outcome.error;
  return { stdout: outcome.stdout, removedInstalls };
}

/** The folders of npm's cache where npx installed `tarball`. */
export async function npxInstallsOf(tarball: string): Promise<string[]> {
  const cache = (await run('npm', ['config', 'get', 'cache'], { shell })).stdout.trim();
  const installs = join(cache, '_npx');
  const found: string[] = [];
  for (const name of await readdir(installs).catch(() => [])) {
    const manifest = await readFile(join(installs, name, 'package.json'), 'utf8').catch(() => '{}');
    const packages = (JSON.parse(manifest) as { _npx?: { packages?: unknown } })._npx?.packages;
    if (Array.isArray(packages) && packages.includes(tarball)) found.push(join(installs, name));
  }
  return found;
}

/** Every folder above `folder` that holds a node_modules Node could resolve from. */
export function ancestorNodeModules(folder: string): string[] {
  const found: string[] = [];
  for (let current = dirname(folder); ; current = dirname(current)) {
    if (existsSync(join(current, 'node_modules'))) found.push(join(current, 'node_modules'));
    if (dirname(current) === current) return found;
  }
}

export function isolatedEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home };
}

export function startBin(bin: string, args: readonly string[], home: string): ChildProcess {
  return spawn(bin, [...args], { env: isolatedEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
}
