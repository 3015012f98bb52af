import { isBuiltin } from 'node:module';
import { isAbsolute, sep } from 'node:path';

/**
 * The packages written into the bin instead of imported from node_modules: the MCP SDK, which
 * every start loads, and what it imports in turn (its core and zod, with zod's 48 locales; hono
 * for the HTTP transport). Node resolves, reads and compiles each ES module file on its own: about
 * 120 files on every start, about 100 ms of a cached sandbox start of 434 (tools/bench/findings.md).
 * The other packages load on first use, if at all (undici on the first call, openid-client on a
 * sign-in, the YAML parser and the Swagger converter for such documents), and stay imports.
 */
export const INLINED_PACKAGES: readonly string[] = ['@modelcontextprotocol/server', '@modelcontextprotocol/node'];

/** Pure: whether an import is a package (or a Node built-in) rather than a file of the project. */
export function isPackageImport(id: string): boolean {
  return !id.startsWith('.') && !isAbsolute(id) && !id.startsWith('\0');
}

/** Pure: the package an import names, `@scope/name` or `name`, without its subpath. */
export function packageNameOf(id: string): string {
  const parts = id.split('/');
  return id.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/**
 * Pure: whether the bundle leaves an import for Node to resolve at run time. Built-ins always;
 * a package when the project's own code imports it and it is not one of `INLINED_PACKAGES`. What
 * an inlined package imports is inlined with it (its importer is under node_modules): left as an
 * import, it would resolve from the bin's folder, where npm need not have hoisted it.
 */
export function staysExternal(id: string, importer: string | undefined): boolean {
  if (isBuiltin(id)) return true;
  if (!isPackageImport(id)) return false;
  if (importer !== undefined && importer.includes(`${sep}node_modules${sep}`)) return false;
  return !INLINED_PACKAGES.includes(packageNameOf(id));
}
