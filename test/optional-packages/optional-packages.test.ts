/**
 * The packages a plain install leaves out: their versions against package.json, the one install
 * command for each kind of install, and the coded error a missing one becomes.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSchoolMcpError } from '../../src/errors.js';
import {
  installCommand,
  installKindOf,
  missingOptionalPackage,
  OPTIONAL_PACKAGES,
  optionalPackageError,
  requireOptional,
} from '../../src/optional-packages.js';

const root = resolve(import.meta.dirname, '../..');

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

function notFound(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('optional packages', () => {
  let manifest: Manifest;
  let empty: string;
  beforeAll(async () => {
    manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Manifest;
    empty = await mkdtemp(join(tmpdir(), 'school-mcp-optional-'));
  });
  afterAll(async () => {
    if (empty) await rm(empty, { recursive: true, force: true });
  });

  it('DIST-06 are optional peer dependencies of package.json at the pinned versions, never plain dependencies, and installed for the tests', () => {
    const specs = Object.values(OPTIONAL_PACKAGES).flatMap(({ packages }) => packages);
    const byName = new Map(
      specs.map((spec) => [spec.slice(0, spec.lastIndexOf('@')), spec.slice(spec.lastIndexOf('@') + 1)]),
    );
    expect(Object.fromEntries(byName)).toEqual(manifest.peerDependencies);
    for (const [name, version] of byName) {
      expect(manifest.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
      expect(manifest.dependencies?.[name], name).toBeUndefined();
      expect(manifest.devDependencies?.[name], name).toBe(version);
    }
  });

  it('tells npx, global and project installs apart by where the running file lies', () => {
    expect(installKindOf('/home/ana/.npm/_npx/4f1d2c3b/node_modules/school-mcp/dist/bin/chunks/run-hosted-x.js')).toBe(
      'npx',
    );
    expect(
      installKindOf(
        'C:\\Users\\ana\\AppData\\Local\\npm-cache\\_npx\\4f1d\\node_modules\\school-mcp\\dist\\bin\\school-mcp.js',
      ),
    ).toBe('npx');
    expect(installKindOf('/usr/local/lib/node_modules/school-mcp/dist/bin/school-mcp.js')).toBe('global');
    expect(
      installKindOf('C:\\Users\\ana\\AppData\\Roaming\\npm\\node_modules\\school-mcp\\dist\\bin\\school-mcp.js'),
    ).toBe('global');
    expect(installKindOf('/srv/tutor/node_modules/school-mcp/dist/bin/school-mcp.js')).toBe('project');
    expect(installKindOf('/work/school-mcp/src/app/run-hosted.ts')).toBe('project');
  });

  it('names one install command for each kind of install', () => {
    expect(installCommand('hosted', 'project')).toBe('npm install oidc-provider@8.8.1 @redis/client@5.10.0');
    expect(installCommand('hosted', 'global')).toBe('npm install --global oidc-provider@8.8.1 @redis/client@5.10.0');
    expect(installCommand('hosted', 'npx')).toBe(
      'npx -y -p school-mcp -p oidc-provider@8.8.1 -p @redis/client@5.10.0 school-mcp …',
    );
    expect(installCommand('swagger', 'project')).toBe('npm install swagger2openapi@7.0.8');
  });

  it('reads which optional package Node could not find, and only those', () => {
    expect(
      missingOptionalPackage(
        notFound("Cannot find package 'oidc-provider' imported from /srv/x/chunks/hosted.js", 'ERR_MODULE_NOT_FOUND'),
        'hosted',
      ),
    ).toBe('oidc-provider');
    expect(
      missingOptionalPackage(
        notFound("Cannot find package '@redis/client' imported from /srv/x/chunks/hosted.js", 'ERR_MODULE_NOT_FOUND'),
        'hosted',
      ),
    ).toBe('@redis/client');
    expect(
      missingOptionalPackage(
        notFound("Cannot find module 'swagger2openapi'\nRequire stack:\n- /srv/x.js", 'MODULE_NOT_FOUND'),
        'swagger',
      ),
    ).toBe('swagger2openapi');
    // A package of theirs missing is a broken install, not a plain one: the error stays as it is.
    expect(
      missingOptionalPackage(
        notFound(
          "Cannot find package 'koa' imported from /srv/node_modules/oidc-provider/lib/index.js",
          'ERR_MODULE_NOT_FOUND',
        ),
        'hosted',
      ),
    ).toBeUndefined();
    expect(
      missingOptionalPackage(
        notFound("Cannot find package 'oidc-provider' imported from /srv/x.js", 'ERR_MODULE_NOT_FOUND'),
        'swagger',
      ),
    ).toBeUndefined();
    expect(missingOptionalPackage(new Error("Cannot find package 'oidc-provider'"), 'hosted')).toBeUndefined();
    expect(missingOptionalPackage('oidc-provider', 'hosted')).toBeUndefined();
  });

  it('DIST-07 turns a missing hosted package into OPTIONAL_PACKAGE_MISSING whose hint is the install command, and leaves other errors alone', () => {
    const error = optionalPackageError(
      notFound("Cannot find package 'oidc-provider' imported from /x", 'ERR_MODULE_NOT_FOUND'),
      'hosted',
      '/usr/lib/node_modules/school-mcp/dist/bin/school-mcp.js',
    );
    expect(isSchoolMcpError(error) && error.code).toBe('OPTIONAL_PACKAGE_MISSING');
    expect(isSchoolMcpError(error) && error.hint).toBe(
      'install them beside school-mcp: npm install --global oidc-provider@8.8.1 @redis/client@5.10.0',
    );
    const other = new Error('boom');
    expect(optionalPackageError(other, 'hosted', '/x')).toBe(other);
  });

  it('requires an optional package that Node cannot find as OPTIONAL_PACKAGE_MISSING', () => {
    const requireHere = createRequire(join(empty, 'node_modules', 'school-mcp', 'dist', 'bin', 'school-mcp.js'));
    let thrown: unknown;
    try {
      requireOptional(requireHere, 'swagger2openapi', 'swagger');
    } catch (error) {
      thrown = error;
    }
    expect(isSchoolMcpError(thrown) && thrown.code).toBe('OPTIONAL_PACKAGE_MISSING');
    expect(isSchoolMcpError(thrown) && thrown.hint).toBe(
      'install it beside school-mcp: npm install swagger2openapi@7.0.8',
    );
    expect(requireOptional(createRequire(join(root, 'package.json')), 'swagger2openapi', 'swagger')).toHaveProperty(
      'convertObj',
    );
  });
});
