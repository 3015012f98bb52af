/**
 * `npm run build`'s second step: the compiled entry (`dist/src/main.js`) and every module of
 * `src/` it reaches, bundled into `dist/bin/school-mcp.js` plus a chunk per lazily loaded command
 * (`dist/bin/chunks/`), which is what the package's bin runs. Node resolves, reads and links each
 * ES module file on its own: one file instead of about 160 of ours took about 55 ms off every
 * start, and writing in the MCP SDK and zod (`INLINED_PACKAGES`) about 100 ms more
 * (tools/bench/findings.md). The other packages stay imports from node_modules. The inlined ones'
 * licences ship beside the bin, in `THIRD-PARTY-LICENSES.md`.
 * Rolldown is the bundler vitest already brings (through vite), pinned as a devDependency.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { rolldown } from 'rolldown';
import { buildLicenceNotice, packageRootsOf, type InlinedPackage } from './licence-notice.js';
import { staysExternal } from './package-imports.js';

// Run from its compiled place, dist/tools/bin-bundle/.
const ROOT = resolve(import.meta.dirname, '../../..');
const ENTRY = join(ROOT, 'dist/src/main.js');
const OUT = join(ROOT, 'dist/bin');
const LICENCE_FILES = ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'LICENCE', 'license'];

async function main(): Promise<void> {
  await rm(OUT, { recursive: true, force: true });
  const bundle = await rolldown({ input: ENTRY, platform: 'node', external: (id, importer) => staysExternal(id, importer), logLevel: 'warn' });
  try {
    const { output } = await bundle.write({ dir: OUT, format: 'esm', entryFileNames: 'school-mcp.js', chunkFileNames: 'chunks/[name]-[hash].js' });
    const moduleIds = output.flatMap((file) => (file.type === 'chunk' ? file.moduleIds : []));
    const packages = await Promise.all(packageRootsOf(moduleIds).map(describePackage));
    await writeFile(join(OUT, 'THIRD-PARTY-LICENSES.md'), buildLicenceNotice(packages));
  } finally {
    await bundle.close();
  }
}

async function describePackage(root: string): Promise<InlinedPackage> {
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { name: string; version: string; license?: string };
  let licenceText: string | undefined;
  for (const name of LICENCE_FILES) {
    licenceText = await readFile(join(root, name), 'utf8').catch(() => undefined);
    if (licenceText !== undefined) break;
  }
  return { name: manifest.name, version: manifest.version, license: manifest.license ?? 'UNLICENSED', licenceText };
}

await main();
