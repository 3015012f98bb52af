/**
 * The one-click install, from the archive a user would drop on a desktop host: `npm run bundle`'s
 * builder writes the `.mcpb`, it is unpacked the way the `mcpb` tools unpack it, and the server is
 * started with the manifest's own `mcp_config` (user_config filled in against a sandbox school).
 */
import { unpackExtension } from '@anthropic-ai/mcpb';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { buildBundle, type BundleManifest } from '../../tools/bundle/index.js';
import { launchAsHost, resolveMcpConfig, type LaunchManifest } from '../helpers/mcpb-launch.js';

const root = resolve(import.meta.dirname, '../..');
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
  if (!(await unpackExtension({ mcpbPath: bundlePath, outputDir: installed, silent: true }))) throw new Error('mcpb unpack failed');
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
    for (const dependency of ['@modelcontextprotocol/server', 'openid-client', 'undici', 'zod']) {
      expect(existsSync(join(installed, 'node_modules', dependency, 'package.json')), dependency).toBe(true);
    }
    for (const absent of ['node_modules/typescript', 'node_modules/vitest', 'node_modules/@anthropic-ai/mcpb', 'test', 'tools', 'src']) {
      expect(existsSync(join(installed, absent)), absent).toBe(false);
    }
  });

  it('starts as its manifest says, with the school URL from user_config, and serves the school', async () => {
    const manifest = JSON.parse(await readFile(join(installed, 'manifest.json'), 'utf8')) as LaunchManifest;
    const launch = resolveMcpConfig(manifest, installed, { school_url: sandbox.url });
    const home = join(workDir, 'home');
    await mkdir(home);
    const server = await launchAsHost(launch, home);
    try {
      const { tools } = await server.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['who_am_i', 'list_courses', 'create_coupon']));
      const answer = (await server.client.callTool({ name: 'who_am_i', arguments: {} })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
      expect(answer.isError).toBeFalsy();
      expect(answer.structuredContent).toMatchObject({ signedIn: false, school: expect.stringContaining(new URL(sandbox.url).host) });
    } finally {
      await server.close();
    }
  });
});
