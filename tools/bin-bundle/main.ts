/**
 * `npm run build`'s second step: the compiled entry (`dist/src/main.js`) and every module of
 * `src/` it reaches, bundled into `dist/bin/school-mcp.js` plus a chunk per lazily loaded command
 * (`dist/bin/chunks/`), which is what the package's bin runs. Node resolves, reads and links each
 * ES module file on its own: one file instead of about 160 of ours took about 55 ms off every
 * start, and writing in the MCP SDK and zod (`INLINED_PACKAGES`) about 100 ms more
 * (tools/bench/findings.md). The other packages stay imports from node_modules. The licences of
 * the code written in ship beside the bin, in `THIRD-PARTY-LICENSES.md`.
 * Rolldown is the bundler vitest already brings (through vite), pinned as a devDependency.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { rolldown, type OutputChunk } from 'rolldown';
import { buildLicenceNotice, heldPackagesOf, packageRootsOf, type InlinedPackage } from './licence-notice.js';
import { INLINED_WORKSPACES, isPackageImport, packageNameOf, staysExternal } from './package-imports.js';

// Run from its compiled place, dist/tools/bin-bundle/.
const ROOT = resolve(import.meta.dirname, '../../..');
const ENTRY = join(ROOT, 'dist/src/main.js');
const OUT = join(ROOT, 'dist/bin');
const PACKAGES_DIR = join(ROOT, 'node_modules') + sep;
const LICENCE_FILES = ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'LICENCE', 'license', 'LICENSE-MIT'];

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly license?: string;
}

async function main(): Promise<void> {
  await rm(OUT, { recursive: true, force: true });
  const bundle = await rolldown({
    input: ENTRY,
    platform: 'node',
    external: (id, importer) => staysExternal(id, importer, PACKAGES_DIR),
    logLevel: 'warn',
  });
  try {
    const { output } = await bundle.write({
      dir: OUT,
      format: 'esm',
      entryFileNames: 'school-mcp.js',
      chunkFileNames: 'chunks/[name]-[hash].js',
    });
    const chunks = output.filter((file): file is OutputChunk => file.type === 'chunk');
    const rendered = chunks.flatMap((chunk) =>
      Object.entries(chunk.modules).flatMap(([id, module]) => (module.renderedLength > 0 ? [id] : [])),
    );
    const roots = packageRootsOf(rendered);
    const inlined = await Promise.all(roots.map(async (root) => ({ root, manifest: await readManifest(root) })));
    refuseTwoCopies(chunks, new Set([...inlined.map(({ manifest }) => manifest.name), ...INLINED_WORKSPACES]));
    const packages: InlinedPackage[] = await Promise.all(
      inlined.map(({ root, manifest }) => describePackage(root, manifest)),
    );
    packages.push(...(await heldByInlined(rendered, inlined, new Set(packages.map((entry) => entry.name)))));
    await writeFile(join(OUT, 'THIRD-PARTY-LICENSES.md'), buildLicenceNotice(packages));
  } finally {
    await bundle.close();
  }
}

/** A package both written in and left as an import would run as two copies, with two module states. */
function refuseTwoCopies(chunks: readonly OutputChunk[], inlinedNames: ReadonlySet<string>): void {
  const imported = chunks
    .flatMap((chunk) => [...chunk.imports, ...chunk.dynamicImports])
    .filter((id) => isPackageImport(id));
  const both = [...new Set(imported.map(packageNameOf))].filter((name) => inlinedNames.has(name));
  if (both.length > 0)
    throw new Error(
      `The bin would hold ${both.join(', ')} and import it as well; add it to INLINED_PACKAGES or INLINED_WORKSPACES, or import it only from the project.`,
    );
}

/** What the inlined packages' own builds hold (the SDK's ajv, for one), from their source maps. */
async function heldByInlined(
  rendered: readonly string[],
  inlined: readonly { root: string; manifest: Manifest }[],
  listed: ReadonlySet<string>,
): Promise<InlinedPackage[]> {
  const found = new Map<string, { version: string | undefined; heldBy: string }>();
  for (const id of rendered) {
    const owner = inlined.find(({ root }) => id.startsWith(root + sep));
    if (owner === undefined) continue;
    const map = await readFile(`${id}.map`, 'utf8').catch(() => undefined);
    if (map === undefined) continue;
    const { sources } = JSON.parse(map) as { sources?: string[] };
    for (const held of heldPackagesOf(sources ?? [])) {
      if (held.name === owner.manifest.name || listed.has(held.name) || found.has(held.name)) continue;
      found.set(held.name, { version: held.version, heldBy: owner.manifest.name });
    }
  }
  // Their licence texts come from the copies installed here (ajv and its kin come with the dev
  // dependencies); a held package that is not installed stops the build rather than ship unnamed.
  const require = createRequire(join(ROOT, 'package.json'));
  return Promise.all(
    [...found].map(async ([name, { version, heldBy }]) => {
      let root: string;
      try {
        root = dirname(require.resolve(`${name}/package.json`));
      } catch {
        throw new Error(
          `${heldBy}'s build holds ${name}, which is not installed here, so its licence cannot be written beside the bin.`,
        );
      }
      const manifest = await readManifest(root);
      const described = await describePackage(root, manifest);
      return {
        ...described,
        version: version ?? manifest.version,
        heldBy: { name: heldBy, textFromVersion: manifest.version },
      };
    }),
  );
}

async function readManifest(root: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Manifest;
}

async function describePackage(root: string, manifest: Manifest): Promise<InlinedPackage> {
  let licenceText: string | undefined;
  for (const name of LICENCE_FILES) {
    licenceText = await readFile(join(root, name), 'utf8').catch(() => undefined);
    if (licenceText !== undefined) break;
  }
  // Apache-2.0 §4(d): a NOTICE file travels with the work.
  const notice = await readFile(join(root, 'NOTICE'), 'utf8').catch(() => undefined);
  if (notice !== undefined) licenceText = `${licenceText ?? ''}\n\nNOTICE\n\n${notice}`;
  return { name: manifest.name, version: manifest.version, license: manifest.license ?? 'UNLICENSED', licenceText };
}

await main();
