import { isAbsolute } from 'node:path';

/** Pure: whether an import is a package (or a Node built-in) rather than a file of the project. */
export function isPackageImport(id: string): boolean {
  return !id.startsWith('.') && !isAbsolute(id) && !id.startsWith('\0');
}
