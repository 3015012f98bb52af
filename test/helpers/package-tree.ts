/**
 * Reading an installed `node_modules` tree: which folders are packages, and which files each one
 * holds of its own (a package's nested `node_modules` holds other packages, listed on their own).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A name such as `LICENSE`, `license.md`, `THIRD_PARTY_NOTICES.txt` or `COPYING`. */
export function isLicenceFile(name: string): boolean {
  return /licen[cs]e|notice|copying/i.test(name);
}

/** Every package folder below `<base>/node_modules`, nested ones included, relative to `base` with `/`. */
export function packageFolders(base: string, under = ''): string[] {
  const nodeModules = join(base, under, 'node_modules');
  if (!existsSync(nodeModules)) return [];
  const prefix = under === '' ? 'node_modules' : `${under}/node_modules`;
  const folders = readdirSync(nodeModules, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .flatMap((entry) =>
      entry.name.startsWith('@')
        ? readdirSync(join(nodeModules, entry.name), { withFileTypes: true })
            .filter((scoped) => scoped.isDirectory())
            .map((scoped) => `${prefix}/${entry.name}/${scoped.name}`)
        : [`${prefix}/${entry.name}`],
    );
  return folders.flatMap((folder) => [folder, ...packageFolders(base, folder)]);
}

/** The files of the package at `<base>/<folder>`, relative to that folder with `/`, leaving out its `node_modules`. */
export function ownFiles(base: string, folder: string, within = ''): string[] {
  return readdirSync(join(base, folder, within), { withFileTypes: true }).flatMap((entry) => {
    const path = within === '' ? entry.name : `${within}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : ownFiles(base, folder, path);
    return entry.isFile() ? [path] : [];
  });
}

/** `name@version` of the package at `<base>/<folder>`, or undefined when it has no readable package.json. */
export function packageIdentity(base: string, folder: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(base, folder, 'package.json'), 'utf8')) as {
      name?: string;
      version?: string;
    };
    return `${manifest.name}@${manifest.version}`;
  } catch {
    return undefined;
  }
}

/** Every file below `folder` (links are not followed) and their sizes added up, as a user's disk holds them. */
export function treeSize(folder: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return { bytes, files };
}
