import { isBuiltin } from 'node:module';
import { isAbsolute } from 'node:path';

/**
 * The packages written into the bin instead of imported from node_modules: the MCP SDK, which
 * every start loads, and what it imports in turn (its core and zod; for HTTP, @hono/node-server).
 * Node resolves, reads and compiles each ES module file on its own: 118 files on every start
 * (zod's 101, its 48 locales among them, of which the bundle keeps the one used), about 100 ms of
 * a cached sandbox start of 434 (tools/bench/findings.md). The other packages load on first use,
 * if at all (undici on the first call or once the tools are listed, openid-client on a sign-in,
 * the YAML parser and the Swagger converter for such documents), and stay imports.
 */
export const INLINED_PACKAGES: readonly string[] = ['@modelcontextprotocol/server', '@modelcontextprotocol/node'];

/** This repository's own workspace packages the bin writes in; their code is the project's, under its licence. */
export const INLINED_WORKSPACES: readonly string[] = ['@school-mcp/sandbox'];

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
 * a package when the project's own code imports it and it is not one of `INLINED_PACKAGES` or
 * `INLINED_WORKSPACES` (the sandbox school, written into the chunk that `--demo` and
 * `school-mcp sandbox` load, so that the one package a user installs runs both). What
 * an inlined package imports is inlined with it (its importer is under the project's
 * `packagesDir`, node_modules with a trailing separator): left as an import, it would resolve
 * from the bin's folder, where npm need not have hoisted it.
 */
export function staysExternal(id: string, importer: string | undefined, packagesDir: string): boolean {
  if (isBuiltin(id)) return true;
  if (!isPackageImport(id)) return false;
  if (importer !== undefined && importer.startsWith(packagesDir)) return false;
  const name = packageNameOf(id);
  return !INLINED_PACKAGES.includes(name) && !INLINED_WORKSPACES.includes(name);
}
