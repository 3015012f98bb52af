/**
 * The sandbox school as its own package (`packages/sandbox`, `@school-mcp/sandbox`): packed as npm
 * would publish it, installed into an empty folder with nothing of this repository beside it, and
 * started by a plain Node script through its package name, which resolves to its built files.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ancestorNodeModules, installLocally, isolatedEnv, packTarball, run } from '../helpers/packed-package.js';

const packageDir = resolve(import.meta.dirname, '../../packages/sandbox');
let workDir: string;
let tarball: string;
let installDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'school-mcp-sandbox-pack-'));
  // dist/ is built by `npm run build` (its first step), as for the bridge's package test.
  tarball = await packTarball(workDir, packageDir);
  installDir = join(workDir, 'app');
  await mkdir(installDir);
  await installLocally(tarball, installDir);
}, 300_000);

afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('the sandbox package', () => {
  it('DIST-08 ships its built library, its types, README and licence, and no sources, tests or source maps', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.split('\n').filter(Boolean);
    expect(files).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/README.md',
        'package/LICENSE',
        'package/dist/index.js',
        'package/dist/index.d.ts',
      ]),
    );
    expect(
      files.filter((file) => !/^package\/(package\.json|README\.md|LICENSE|dist\/.+\.(js|d\.ts))$/.test(file)),
    ).toEqual([]);
  });

  it('DIST-08 installs with no dependency of its own, where Node can resolve nothing of this repository', async () => {
    expect(ancestorNodeModules(installDir)).toEqual([]);
    const installed = await readdir(join(installDir, 'node_modules'));
    expect(installed.filter((name) => !name.startsWith('.'))).toEqual(['@school-mcp']);
    expect(await readdir(join(installDir, 'node_modules', '@school-mcp'))).toEqual(['sandbox']);
  });

  it('starts a school that serves its OpenAPI document, imported by its package name', async () => {
    const script = join(installDir, 'start.mjs');
    await writeFile(
      script,
      [
        "import { startSandbox } from '@school-mcp/sandbox';",
        'const school = await startSandbox({});',
        "const document = await (await fetch(new URL('/openapi.json', school.url))).json();",
        'await school.close();',
        "process.stdout.write(JSON.stringify({ openapi: document.openapi, courses: '/api/v1/courses' in document.paths }));",
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, [script], {
      cwd: installDir,
      env: isolatedEnv(join(workDir, 'home')),
    });
    expect(JSON.parse(stdout)).toEqual({ openapi: expect.stringMatching(/^3\./), courses: true });
  }, 60_000);
});
