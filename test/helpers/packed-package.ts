/**
 * The package as a user gets it: `npm pack` of the built tree, installed from the tarball into a
 * folder of its own with production dependencies only, its bin run directly (so its shebang is
 * what starts it) with nothing of this process's environment but PATH and HOME.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);
// npm is a .cmd script on Windows, which Node starts only through a shell.
const shell = process.platform === 'win32';
const REPOSITORY_ROOT = resolve(import.meta.dirname, '../..');

/** Packs the already built tree (no scripts: rebuilding dist/ would race other e2e tests). */
export async function packTarball(destination: string): Promise<string> {
  await run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', destination], { cwd: REPOSITORY_ROOT, shell });
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
