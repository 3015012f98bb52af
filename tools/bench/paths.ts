/**
 * Where the bench finds the project and writes its scratch files. The bench runs from `dist/`
 * (`npm run bench`) and, in tests, from source; both resolve to the same project root.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

function findProjectRoot(start: string): string {
  let directory = start;
  for (;;) {
    const manifest = join(directory, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'school-mcp')
      return directory;
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`no school-mcp package.json above ${start}`);
    directory = parent;
  }
}

export const PROJECT_ROOT = findProjectRoot(import.meta.dirname);
/** The built entry point that users run as `school-mcp`. */
export const SCHOOL_MCP_MAIN = join(PROJECT_ROOT, 'dist/bin/school-mcp.js');
/** The bench's own manifest and the peers it installs, kept out of the package. */
export const BENCH_PACKAGE_DIR = join(PROJECT_ROOT, 'tools/bench');
export const BENCH_NODE_MODULES = join(BENCH_PACKAGE_DIR, 'node_modules');
/** The bench's compiled programs that run as child processes. */
export const BENCH_DIST = join(PROJECT_ROOT, 'dist/tools/bench');
export const REAL_DOCUMENTS_DIR = join(PROJECT_ROOT, 'test/fixtures/openapi');
