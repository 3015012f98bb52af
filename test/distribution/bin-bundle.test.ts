/**
 * The bin is the bundle of `src/` that `npm run build` writes (`tools/bin-bundle/main.ts`): every
 * package stays an import from node_modules, and the bundle is what every end-to-end test runs.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPackageImport } from '../../tools/bin-bundle/package-imports.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('the bundled bin', () => {
  it('keeps packages and Node built-ins external and bundles only the project\'s own files', () => {
    for (const external of ['@modelcontextprotocol/server', 'openid-client', 'zod/v4', 'node:fs', 'js-yaml']) expect(isPackageImport(external), external).toBe(true);
    for (const own of ['./app/index.js', '../errors.js', '/opt/app/dist/src/log.js', '\0rolldown/runtime.js']) expect(isPackageImport(own), own).toBe(false);
  });

  it('is what package.json names as the bin, starts with its shebang, and imports packages by name', async () => {
    const packageJson = JSON.parse(await readFile(resolve(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string>; files: string[] };
    expect(packageJson.bin['school-mcp']).toBe('dist/bin/school-mcp.js');
    expect(packageJson.files).toContain('dist/bin');
    const bundle = await readFile(resolve(ROOT, packageJson.bin['school-mcp']!), 'utf8');
    expect(bundle.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(bundle).toMatch(/from "@modelcontextprotocol\/server"/);
    expect(bundle).not.toMatch(/from "\.\.\/src\//);
  });
});
