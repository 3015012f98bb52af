/**
 * The bin is the bundle of `src/` that `npm run build` writes (`tools/bin-bundle/main.ts`), with
 * the MCP SDK and what it imports written in, every other package left an import from
 * node_modules, and the inlined packages' licences beside it. It is what every end-to-end test runs.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildLicenceNotice, heldPackagesOf, packageRootsOf } from '../../tools/bin-bundle/licence-notice.js';
import {
  INLINED_PACKAGES,
  isPackageImport,
  packageNameOf,
  staysExternal,
} from '../../tools/bin-bundle/package-imports.js';

const ROOT = resolve(import.meta.dirname, '../..');
const OWN_FILE = join(ROOT, 'dist', 'src', 'app', 'start.js');
const PACKAGES_DIR = join(ROOT, 'node_modules') + sep;
const SDK_FILE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server', 'dist', 'index.mjs');

describe('the bundled bin', () => {
  it("tells the project's own files from packages and Node built-ins", () => {
    for (const external of ['@modelcontextprotocol/server', 'openid-client', 'zod/v4', 'node:fs', 'js-yaml'])
      expect(isPackageImport(external), external).toBe(true);
    for (const own of ['./app/index.js', '../errors.js', '/opt/app/dist/src/log.js', '\0rolldown/runtime.js'])
      expect(isPackageImport(own), own).toBe(false);
    expect(packageNameOf('@modelcontextprotocol/server/stdio')).toBe('@modelcontextprotocol/server');
    expect(packageNameOf('zod/v4/core')).toBe('zod');
  });

  it('writes in the MCP SDK and what it imports, and leaves built-ins and the packages loaded on first use as imports', () => {
    for (const inlined of [
      '@modelcontextprotocol/server',
      '@modelcontextprotocol/server/stdio',
      '@modelcontextprotocol/node',
      '@school-mcp/sandbox',
    ])
      expect(staysExternal(inlined, OWN_FILE, PACKAGES_DIR), inlined).toBe(false);
    for (const external of [
      'openid-client',
      'undici',
      'js-yaml',
      '@redis/client',
      'oidc-provider',
      'node:crypto',
      'fs',
    ])
      expect(staysExternal(external, OWN_FILE, PACKAGES_DIR), external).toBe(true);
    // From inside an inlined package, a package comes along (npm need not hoist it beside the bin)
    // and a built-in stays one.
    expect(staysExternal('zod/v4', SDK_FILE, PACKAGES_DIR)).toBe(false);
    expect(staysExternal('hono', SDK_FILE, PACKAGES_DIR)).toBe(false);
    expect(staysExternal('node:crypto', SDK_FILE, PACKAGES_DIR)).toBe(true);
    expect(staysExternal('./mcp-oHn3ureC.mjs', SDK_FILE, PACKAGES_DIR)).toBe(false);
    // A project that itself sits under some node_modules (a git dependency built on install) is
    // still the project: only the importers under its own node_modules are packages.
    const nested = '/srv/app/node_modules/school-mcp/';
    expect(staysExternal('undici', `${nested}dist/src/network/http-stack.js`, `${nested}node_modules/`)).toBe(true);
  });

  it("names the packages a prebuilt file holds from its source map's sources, with the store's versions", () => {
    expect(
      heldPackagesOf([
        '../../../node_modules/.pnpm/ajv@8.18.0/node_modules/ajv/dist/core.js',
        '../../../node_modules/.pnpm/ajv@8.18.0/node_modules/ajv/dist/ajv.js',
        '../../../node_modules/.pnpm/ajv-formats@3.0.1_ajv@8.18.0/node_modules/ajv-formats/dist/index.js',
        '../../../node_modules/.pnpm/@cfworker+json-schema@4.1.1/node_modules/@cfworker/json-schema/dist/esm/index.js',
        '../../node_modules/content-type/index.js',
        '../../core-internal/src/validators/ajvProvider.ts',
      ]),
    ).toEqual([
      { name: '@cfworker/json-schema', version: '4.1.1' },
      { name: 'ajv', version: '8.18.0' },
      { name: 'ajv-formats', version: '3.0.1' },
      { name: 'content-type', version: undefined },
    ]);
  });

  it('names each package the bundle holds once, from its modules, scoped or not', () => {
    const under = (...parts: string[]) => join(ROOT, 'node_modules', ...parts);
    const roots = packageRootsOf([
      OWN_FILE,
      under('zod', 'v4', 'core', 'core.js'),
      under('zod', 'v4', 'classic', 'schemas.js'),
      under('@modelcontextprotocol', 'server', 'dist', 'index.mjs'),
      under('@modelcontextprotocol', 'node', 'node_modules', 'hono', 'dist', 'index.js'),
      '\0rolldown/runtime.js',
    ]);
    expect(roots).toEqual(
      [
        under('@modelcontextprotocol', 'node', 'node_modules', 'hono'),
        under('@modelcontextprotocol', 'server'),
        under('zod'),
      ].sort(),
    );
    expect(roots.every((root) => !root.endsWith(sep))).toBe(true);
  });

  it('writes every licence text into the notice, and says so when a package ships none', () => {
    const notice = buildLicenceNotice([
      { name: 'zod', version: '4.6.7', license: 'MIT', licenceText: 'MIT License\n\nCopyright (c) Colin McDonnell\n' },
      { name: '@modelcontextprotocol/server', version: '2.4.0', license: 'Apache-2.0', licenceText: undefined },
    ]);
    expect(notice).toContain('## zod 4.6.7 (MIT)\n\n```text\nMIT License\n\nCopyright (c) Colin McDonnell\n```');
    expect(notice).toContain('## @modelcontextprotocol/server 2.4.0 (Apache-2.0)');
    expect(notice).toContain('ships no licence file; its package.json names the licence Apache-2.0');
    expect(notice.indexOf('@modelcontextprotocol/server')).toBeLessThan(notice.indexOf('## zod'));
    const held = buildLicenceNotice([
      {
        name: 'ajv',
        version: '8.18.0',
        license: 'MIT',
        licenceText: 'The MIT License',
        heldBy: { name: '@modelcontextprotocol/server', textFromVersion: '8.20.0' },
      },
    ]);
    expect(held).toContain(
      "## ajv 8.18.0 (MIT)\n\nHeld inside @modelcontextprotocol/server's own build; the licence text is that of its version 8.20.0.",
    );
  });

  it('is what package.json names as the bin, starts with its shebang, holds the SDK and imports the rest by name', async () => {
    const packageJson = JSON.parse(await readFile(resolve(ROOT, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
      files: string[];
    };
    expect(packageJson.bin['school-mcp']).toBe('dist/bin/school-mcp.js');
    expect(packageJson.files).toContain('dist/bin');
    const bundle = await readFile(resolve(ROOT, packageJson.bin['school-mcp']!), 'utf8');
    expect(bundle.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(bundle).toMatch(/import\("open"\)/);
    const chunksDir = resolve(ROOT, 'dist/bin/chunks');
    const chunks = await Promise.all((await readdir(chunksDir)).map((name) => readFile(join(chunksDir, name), 'utf8')));
    for (const code of [bundle, ...chunks]) {
      expect(code).not.toMatch(/(from |import\()"(@modelcontextprotocol\/|zod|hono|@hono\/|@school-mcp\/)/);
      expect(code).not.toMatch(/from "\.\.\/src\//);
    }
  });

  it('ships the licences of the packages it holds beside it', async () => {
    const notice = await readFile(resolve(ROOT, 'dist/bin/THIRD-PARTY-LICENSES.md'), 'utf8');
    const inlined = [...INLINED_PACKAGES, '@modelcontextprotocol/core', 'zod', '@hono/node-server'];
    // The SDK's own build holds its JSON Schema validator and what that uses.
    const heldBySdk = ['ajv', 'ajv-formats', 'fast-uri', 'fast-deep-equal', 'json-schema-traverse'];
    for (const name of [...inlined, ...heldBySdk])
      expect(notice, name).toMatch(new RegExp(`^## ${name} \\S+ \\((MIT|Apache-2\\.0|BSD-3-Clause)\\)$`, 'm'));
    expect(notice).toContain('Apache License');
    expect(notice).not.toMatch(/ships no licence file/);
  });
});
