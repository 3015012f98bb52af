/**
 * What a user downloads: the tarball `npm pack` makes, installed into an empty folder with its
 * production dependencies only and nothing of this repository beside it, run through its bin.
 * A file left out of `files`, a dev dependency needed at run time or a broken shebang fails here.
 * The install paths of docs/install.md (npx, global, one-click bundle in bundle.test.ts) each run.
 * What a stdio user never loads is not installed: the packages the bin holds written in (the MCP
 * SDK, zod, hono, the sandbox school), and hosted mode's and the Swagger 2.0 converter's packages,
 * which are optional peers that a start needing them names the install command for.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeConsent } from '@school-mcp/sandbox';
import { linkIn } from '../helpers/mcp-stdio.js';
import { treeSize } from '../helpers/package-tree.js';
import {
  ancestorNodeModules,
  installGlobally,
  installLocally,
  isolatedEnv,
  npxInstallsOf,
  packTarball,
  run,
  runWithNpx,
  startBin,
} from '../helpers/packed-package.js';
import { collectLines } from '../helpers/stderr-lines.js';

const root = resolve(import.meta.dirname, '../..');
/** What one install of the package may weigh, its dependencies included (it was 53 MB and 6,158 files). */
const MAX_INSTALLED_BYTES = 15 * 1024 * 1024;
const MAX_INSTALLED_FILES = 1_500;
let workDir: string;
let tarball: string;
let installDir: string;
let bin: string;
let home: string;
let version: string;

beforeAll(async () => {
  version = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')).version;
  workDir = await mkdtemp(join(tmpdir(), 'school-mcp-pack-'));
  tarball = await packTarball(workDir);
  installDir = join(workDir, 'app');
  home = join(workDir, 'home');
  await Promise.all([mkdir(installDir), mkdir(home)]);
  bin = await installLocally(tarball, installDir);
}, 300_000);

afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('DIST-02 ships the built server, README and licence, and no tests, tools, sources or source maps', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.split('\n').filter(Boolean);
    expect(files).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/dist/bin/school-mcp.js',
        'package/dist/bin/THIRD-PARTY-LICENSES.md',
        'package/README.md',
        'package/LICENSE',
        'package/mcp.json',
      ]),
    );
    expect(
      files.filter((file) =>
        /^package\/(test|tools|src|packages)\/|\/dist\/(test|tools|src)\/|\.map$|\.ts$/.test(file),
      ),
    ).toEqual([]);
  });

  it('DIST-05 installs with its production dependencies within 15 MB and 1,500 files, and runs no script of its own at install', async () => {
    const installed = treeSize(join(installDir, 'node_modules'));
    expect(installed.files).toBeGreaterThan(100);
    expect(installed.bytes, `${installed.bytes} bytes`).toBeLessThanOrEqual(MAX_INSTALLED_BYTES);
    expect(installed.files).toBeLessThanOrEqual(MAX_INSTALLED_FILES);
    const { stdout } = await run('tar', ['-xzOf', tarball, 'package/package.json']);
    const scripts = (JSON.parse(stdout) as { scripts?: Record<string, string> }).scripts ?? {};
    expect(Object.keys(scripts).filter((name) => /^(pre|post)?(install|prepare)$|^prepublish$/.test(name))).toEqual([]);
  });

  it('DIST-06 installs none of the packages the bin holds written in, nor those only hosted mode or a Swagger 2.0 document loads', () => {
    const present = (name: string) => existsSync(join(installDir, 'node_modules', name, 'package.json'));
    for (const name of ['open', 'openid-client', 'undici', 'js-yaml']) expect(present(name), name).toBe(true);
    for (const name of [
      '@modelcontextprotocol/server',
      '@modelcontextprotocol/node',
      '@modelcontextprotocol/core',
      'zod',
      'hono',
      '@hono/node-server',
      '@school-mcp/sandbox',
      'oidc-provider',
      '@redis/client',
      'swagger2openapi',
    ]) {
      expect(present(name), name).toBe(false);
    }
  });

  it('DIST-07 refuses --hosted without its packages, with OPTIONAL_PACKAGE_MISSING and the one command that installs them', async () => {
    // A start that wrongly served would run until killed: the time limit makes that a failure.
    const outcome = await run(bin, ['--hosted', '--demo'], { env: isolatedEnv(home), timeout: 20_000 }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(outcome?.code).toBe(1);
    expect(outcome?.stderr).toContain('[OPTIONAL_PACKAGE_MISSING]');
    expect(outcome?.stderr).toContain('npm install oidc-provider@8.8.1 @redis/client@5.10.0');
    expect(outcome?.stderr).not.toMatch(/listening|MCP endpoint/);
  });

  it('DIST-07 answers a Swagger 2.0 document without its converter with OPTIONAL_PACKAGE_MISSING and the command that installs it', async () => {
    const swagger = join(root, 'test/fixtures/openapi/sume-lms-course.swagger.json');
    const outcome = await run(bin, ['tools', '--openapi', swagger], { env: isolatedEnv(home), timeout: 20_000 }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(outcome?.code).toBe(1);
    expect(outcome?.stderr).toContain('[OPTIONAL_PACKAGE_MISSING]');
    expect(outcome?.stderr).toContain('npm install swagger2openapi@7.0.8');
  });

  it('is installed where Node can resolve nothing of this repository', () => {
    expect(ancestorNodeModules(installDir)).toEqual([]);
  });

  it('prints its version through the installed bin', async () => {
    const { stdout } = await run(bin, ['--version'], { env: isolatedEnv(home) });
    expect(stdout).toBe(`${version}\n`);
  });

  it('explains the login command', async () => {
    const { stdout } = await run(bin, ['login', '--help'], { env: isolatedEnv(home) });
    expect(stdout).toContain('school-mcp login [--scopes');
    expect(stdout).toContain('--school URL');
  });

  it('runs the sandbox school, which serves its OpenAPI document', async () => {
    const child = startBin(bin, ['sandbox', '--port', '0'], home);
    const exited = once(child, 'exit');
    try {
      const lines = collectLines(child.stderr as Readable);
      const exitedEarly = exited.then(() =>
        Promise.reject(new Error(`the sandbox exited before listening; stderr:\n${lines.stderr.join('\n')}`)),
      );
      exitedEarly.catch(() => undefined); // the SIGTERM below ends it too, once it has served
      const listening = await Promise.race([
        lines.waitForLine(/sandbox school listening on http:\/\//, 60_000),
        exitedEarly,
      ]);
      const url = /listening on (http:\/\/\S+)/.exec(listening)![1]!;
      const response = await fetch(new URL('/openapi.json', url));
      expect(response.status).toBe(200);
      const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
      expect(document.openapi).toMatch(/^3\./);
      expect(Object.keys(document.paths)).toContain('/api/v1/courses');
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 90_000);

  it('serves the demo school over stdio to the SDK client: tools, sign-in and a call', async () => {
    const transport = new StdioClientTransport({
      command: bin,
      args: ['--demo', '--no-browser', '--consent-wait', '60', '--link-wait', '60'],
      env: isolatedEnv(home),
      stderr: 'pipe',
    });
    const lines = collectLines(transport.stderr as Readable | null);
    const client = new Client({ name: 'pack-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['who_am_i', 'sign_out', 'list_courses']));

      const answer = client.callTool({ name: 'list_courses', arguments: {} });
      const link = linkIn(await lines.waitForLine(/\/oauth\/authorize\?/, 60_000));
      await (await fetch(await completeConsent(link, 'allow'))).text();
      const result = (await answer) as { isError?: boolean; structuredContent?: { items?: unknown[] } };
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent?.items?.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  }, 120_000);

  it("runs with npx from the tarball, as docs/install.md's npx entry runs it from the registry, and leaves no install in npm's cache", async () => {
    const { stdout, removedInstalls } = await runWithNpx(tarball, ['--version'], workDir);
    expect(stdout).toBe(`${version}\n`);
    expect(removedInstalls).toHaveLength(1);
    expect(await npxInstallsOf(tarball)).toEqual([]);
  }, 180_000);

  it('runs after a global install', async () => {
    const prefix = join(workDir, 'global');
    await mkdir(prefix);
    const globalBin = await installGlobally(tarball, prefix);
    const { stdout } = await run(globalBin, ['--version'], { env: isolatedEnv(home) });
    expect(stdout).toBe(`${version}\n`);
  }, 180_000);
});
