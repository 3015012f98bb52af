/**
 * Builds the MCPB archive from what npm would publish: the packed tarball, unpacked, with the
 * production dependencies of package-lock.json installed beside it (and the Swagger 2.0 converter,
 * an optional peer a plain install leaves out) and manifest.json on top, then
 * zipped by the official `mcpb` packer (which validates the manifest first), leaving out what
 * `tools/bundle/.mcpbignore` names.
 */
import { packExtension } from '@anthropic-ai/mcpb';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OPTIONAL_PACKAGES } from '../../src/optional-packages.js';
import {
  bundleFileName,
  bundleInputProblems,
  carryOptionalPeers,
  type BundleManifest,
  type BundlePackage,
} from './bundle-inputs.js';

const run = promisify(execFile);
// npm is a .cmd script on Windows, which Node starts only through a shell.
const shell = process.platform === 'win32';
/** Which files of the production tree stay out of the archive; the file says why. */
const BUNDLE_IGNORE_FILE = 'tools/bundle/.mcpbignore';

export interface BuildBundleOptions {
  /** The repository root: package.json, package-lock.json, manifest.json and a built dist/. */
  readonly root: string;
  readonly outDir: string;
}

/** Returns the path of the written `.mcpb`. Expects `dist/` to be built already. */
export async function buildBundle({ root, outDir }: BuildBundleOptions): Promise<string> {
  const manifest = JSON.parse(await readFile(join(root, 'manifest.json'), 'utf8')) as BundleManifest;
  const packageJson = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as BundlePackage;
  const problems = bundleInputProblems(manifest, packageJson);
  if (problems.length > 0) throw new Error(`manifest.json does not fit the package:\n  ${problems.join('\n  ')}`);

  const stage = await mkdtemp(join(tmpdir(), 'school-mcp-bundle-'));
  try {
    await run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', stage], { cwd: root, shell });
    const tarball = (await readdir(stage)).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error('npm pack wrote no tarball');
    await run('tar', ['-xzf', tarball], { cwd: stage });
    const extension = join(stage, 'package');
    const carried = carryOptionalPeers(
      JSON.parse(await readFile(join(extension, 'package.json'), 'utf8')) as Record<string, unknown>,
      JSON.parse(await readFile(join(root, 'package-lock.json'), 'utf8')) as Record<string, unknown>,
      OPTIONAL_PACKAGES.swagger.packages.map((spec) => spec.slice(0, spec.lastIndexOf('@'))),
    );
    await writeFile(join(extension, 'package.json'), `${JSON.stringify(carried.packageJson, null, 2)}\n`);
    await writeFile(join(extension, 'package-lock.json'), `${JSON.stringify(carried.lock, null, 2)}\n`);
    await copyFile(join(root, 'manifest.json'), join(extension, 'manifest.json'));
    // Kept as a file in the packer's own format rather than a constant, so that what is reviewed,
    // what the unit test reads with the packer's reader, and what the packer reads are one text.
    await copyFile(join(root, BUNDLE_IGNORE_FILE), join(extension, '.mcpbignore'));
    // The locked versions, production only; no scripts: none of these packages needs one to run.
    await run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: extension, shell });

    await mkdir(outDir, { recursive: true });
    const output = join(outDir, bundleFileName(manifest));
    if (!(await packExtension({ extensionPath: extension, outputPath: output, silent: true }))) {
      throw new Error('mcpb pack refused the bundle (its reasons are printed above)');
    }
    return output;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}
