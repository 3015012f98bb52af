/**
 * `npm run build`'s second step: the compiled entry (`dist/src/main.js`) and every module of
 * `src/` it reaches, bundled into `dist/bin/school-mcp.js` plus a chunk per lazily loaded command
 * (`dist/bin/chunks/`), which is what the package's bin runs. Node resolves, reads and links each
 * ES module file on its own; one file instead of about 160 took about 55 ms off every start
 * (tools/bench/findings.md). Packages stay external: they load from node_modules exactly as
 * without the bundle, under their own licences, and nothing of theirs is copied into ours.
 * Rolldown is the bundler vitest already brings (through vite), pinned as a devDependency.
 */
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { rolldown } from 'rolldown';
import { isPackageImport } from './package-imports.js';

// Run from its compiled place, dist/tools/bin-bundle/.
const ROOT = resolve(import.meta.dirname, '../../..');
const ENTRY = join(ROOT, 'dist/src/main.js');
const OUT = join(ROOT, 'dist/bin');

async function main(): Promise<void> {
  await rm(OUT, { recursive: true, force: true });
  const bundle = await rolldown({ input: ENTRY, platform: 'node', external: isPackageImport, logLevel: 'warn' });
  try {
    await bundle.write({ dir: OUT, format: 'esm', entryFileNames: 'school-mcp.js', chunkFileNames: 'chunks/[name]-[hash].js' });
  } finally {
    await bundle.close();
  }
}

await main();
