/**
 * The one-click install, from the archive a user would drop on a desktop host: `npm run bundle`'s
 * builder writes the `.mcpb`, it is unpacked the way the `mcpb` tools unpack it, and the server is
 * started with the manifest's own `mcp_config` (user_config filled in against a sandbox school).
 */
import { shouldExclude, unpackExtension } from '@anthropic-ai/mcpb';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { buildBundle, type BundleManifest } from '../../tools/bundle/index.js';
import { launchAsHost, resolveMcpConfig, type LaunchManifest } from '../helpers/mcpb-launch.js';
import { isLicenceFile, ownFiles, packageFolders, packageIdentity } from '../helpers/package-tree.js';

const root = resolve(import.meta.dirname, '../..');
const RUNTIME_FILE = /\.(?:js|cjs|mjs|json|node|wasm)$/i;
let workDir: string;
let bundlePath: string;
let installed: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'school-mcp-mcpb-'));
  // dist/ is built by `pretest`; the builder packs it as it is, like `npm run bundle` after its build.
  bundlePath = await buildBundle({ root, outDir: join(workDir, 'out') });
  installed = join(workDir, 'installed');
  await mkdir(installed);
  if (!(await unpackExtension({ mcpbPath: bundlePath, outputDir: installed, silent: true })))
    throw new Error('mcpb unpack failed');
  sandbox = await startSandbox({});
}, 300_000);

afterAll(async () => {
  await sandbox?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('the .mcpb bundle', () => {
  it('is named after the package and version, and carries its manifest', async () => {
    const packageJson = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    expect(bundlePath.endsWith(`school-mcp-${packageJson.version}.mcpb`)).toBe(true);
    const manifest = JSON.parse(await readFile(join(installed, 'manifest.json'), 'utf8')) as BundleManifest;
    expect(manifest.version).toBe(packageJson.version);
  });

  it('DIST-03 holds the production dependencies and nothing of the development tree', () => {
    // The Swagger 2.0 converter, an optional peer of a plain install, travels inside: a desktop host gives no terminal to add it.
    for (const dependency of ['openid-client', 'undici', 'open', 'js-yaml', 'swagger2openapi']) {
      expect(existsSync(join(installed, 'node_modules', dependency, 'package.json')), dependency).toBe(true);
    }
    // The bin holds the MCP SDK, zod and the sandbox school written in; hosted mode's packages are optional peers.
    const writtenIn = ['@modelcontextprotocol/server', 'zod', 'hono', '@school-mcp/sandbox'].map(
      (name) => `node_modules/${name}`,
    );
    const optional = ['oidc-provider', '@redis/client'].map((name) => `node_modules/${name}`);
    for (const absent of [
      'node_modules/typescript',
      'node_modules/vitest',
      'node_modules/@anthropic-ai/mcpb',
      ...writtenIn,
      ...optional,
      'test',
      'tools',
      'src',
      'packages',
      'dist/src',
    ]) {
      expect(existsSync(join(installed, absent)), absent).toBe(false);
    }
  });

  it('DIST-04 carries no TypeScript and no Markdown of its dependencies, licences aside', () => {
    const files = packageFolders(installed).flatMap((folder) =>
      ownFiles(installed, folder).map((file) => `${folder}/${file}`),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((path) => /\.[cm]?ts$/i.test(path))).toEqual([]);
    expect(files.filter((path) => /\.(?:md|markdown)$/i.test(path) && !isLicenceFile(basename(path)))).toEqual([]);
    expect(files.filter((path) => /\.(?:md|markdown)$/i.test(path)).length).toBeGreaterThan(0);
  });

  it('DIST-04 keeps every licence file and every file Node can load of each package the development install has too', () => {
    // The development install comes from the same package-lock.json: a package at the same place
    // with the same name and version was unpacked from the same tarball.
    const compared = packageFolders(installed).filter(
      (folder) =>
        packageIdentity(installed, folder) !== undefined &&
        packageIdentity(installed, folder) === packageIdentity(root, folder),
    );
    expect(compared.length).toBeGreaterThan(10);
    // What the packer keeps by its defaults alone (which drop e.g. tsconfig.json) the ignore file must keep too.
    const missing = compared.flatMap((folder) =>
      ownFiles(root, folder)
        .map((file) => `${folder}/${file}`)
        .filter((path) => isLicenceFile(basename(path)) || RUNTIME_FILE.test(path))
        .filter((path) => !shouldExclude(path) && !existsSync(join(installed, path))),
    );
    expect(missing).toEqual([]);
    for (const licence of ['undici/LICENSE', 'openid-client/LICENSE.md', 'open/license']) {
      expect(existsSync(join(installed, 'node_modules', licence)), licence).toBe(true);
    }
    // The licences of what the bin holds written in travel beside it.
    expect(existsSync(join(installed, 'dist/bin/THIRD-PARTY-LICENSES.md'))).toBe(true);
  });

  it('starts as its manifest says, with the school URL from user_config, and serves the school', async () => {
    const manifest = JSON.parse(await readFile(join(installed, 'manifest.json'), 'utf8')) as LaunchManifest;
    const launch = resolveMcpConfig(manifest, installed, { school_url: sandbox.url });
    const home = join(workDir, 'home');
    await mkdir(home);
    const server = await launchAsHost(launch, home);
    try {
      const { tools } = await server.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['who_am_i', 'list_courses', 'create_coupon']),
      );
      const answer = (await server.client.callTool({ name: 'who_am_i', arguments: {} })) as {
        isError?: boolean;
        structuredContent?: Record<string, unknown>;
      };
      expect(answer.isError).toBeFalsy();
      expect(answer.structuredContent).toMatchObject({
        signedIn: false,
        school: expect.stringContaining(new URL(sandbox.url).host),
      });
    } finally {
      await server.close();
    }
  });
});
