/**
 * `manifest.json`, the MCPB bundle's manifest for one-click install in desktop hosts: valid
 * against the schema the official `mcpb` tools publish, in step with package.json, and resolved
 * into a command the way a host resolves it.
 */
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bundleFileName,
  bundleInputProblems,
  carryOptionalPeers,
  type BundleManifest,
} from '../../tools/bundle/index.js';
import { loadConfig } from '../../src/config/index.js';
import { compileSchemaFile, readJson } from '../helpers/json-schema.js';
import { resolveMcpConfig } from '../helpers/mcpb-launch.js';

const root = resolve(import.meta.dirname, '../..');
const manifest = readJson<BundleManifest & { manifest_version: string; user_config: Record<string, any> }>(
  join(root, 'manifest.json'),
);
const packageJson = readJson(join(root, 'package.json'));
const mcpbDist = dirname(createRequire(import.meta.url).resolve('@anthropic-ai/mcpb'));
const checkManifest = compileSchemaFile(join(mcpbDist, `mcpb-manifest-v${manifest.manifest_version}.schema.json`));

describe('manifest.json', () => {
  it('validates against the published schema of its manifest_version', () => {
    expect(checkManifest(manifest)).toEqual([]);
  });

  it('is checked for real: the schema refuses a setting without a title, and another manifest_version', () => {
    const untitled = {
      ...manifest,
      user_config: { ...manifest.user_config, school_url: { type: 'string', description: 'x' } },
    };
    expect(checkManifest(untitled)).not.toEqual([]);
    expect(checkManifest({ ...manifest, manifest_version: '9.9' })).not.toEqual([]);
  });

  it('has the name and version of package.json and starts its bin', () => {
    expect(manifest.version).toBe(packageJson.version);
    expect(bundleInputProblems(manifest, packageJson)).toEqual([]);
    expect(bundleFileName(manifest)).toBe(`school-mcp-${packageJson.version}.mcpb`);
  });

  it('asks for the school URL (required) and a client id (optional, empty by default)', () => {
    expect(manifest.user_config['school_url']).toMatchObject({ type: 'string', required: true });
    expect(manifest.user_config['client_id']).toMatchObject({ type: 'string', required: false, default: '' });
    expect(Object.values(manifest.user_config).every((entry) => entry.sensitive !== true)).toBe(true);
  });

  it('becomes a command line the server accepts, with the client id only when given', () => {
    const withoutId = resolveMcpConfig(manifest, '/opt/bundle', { school_url: 'https://school.example' });
    expect(withoutId.command).toBe('node');
    expect(withoutId.args[0]).toBe('/opt/bundle/dist/bin/school-mcp.js');
    const plain = loadConfig(withoutId.args.slice(1), withoutId.env);
    expect(plain.schoolUrl?.href).toBe('https://school.example/');
    expect(plain.clientId).toBeUndefined();

    const withId = resolveMcpConfig(manifest, '/opt/bundle', {
      school_url: 'https://school.example',
      client_id: 'pre-registered',
    });
    expect(loadConfig(withId.args.slice(1), withId.env).clientId).toBe('pre-registered');
  });
});

describe('bundleInputProblems', () => {
  it('names a version out of step, an entry point that is not the bin, and an undeclared setting', () => {
    const drifted = {
      ...manifest,
      version: '9.9.9',
      server: {
        ...manifest.server,
        entry_point: 'dist/other.js',
        mcp_config: { command: 'node', args: ['${__dirname}/dist/other.js', '${user_config.token}'] },
      },
    };
    const problems = bundleInputProblems(drifted, packageJson);
    expect(problems).toEqual([
      expect.stringMatching(/version 9\.9\.9 is not package\.json's/),
      expect.stringMatching(/entry_point dist\/other\.js is not the package's bin/),
      expect.stringMatching(/user_config\.token, which user_config does not declare/),
    ]);
  });

  it('DIST-03 insists the host runs the bundled file, not one found on its PATH', () => {
    const global = {
      ...manifest,
      server: { ...manifest.server, mcp_config: { command: 'node', args: ['dist/bin/school-mcp.js'] } },
    };
    expect(bundleInputProblems(global, packageJson)).toEqual([
      expect.stringMatching(/must start with \$\{__dirname\}\/dist\/bin\/school-mcp\.js/),
    ]);
  });
});

describe('resolveMcpConfig', () => {
  it('refuses a missing required setting and an unknown substitution', () => {
    expect(() => resolveMcpConfig(manifest, '/opt/bundle', {})).toThrow(/school_url is required/);
    const odd = {
      ...manifest,
      server: { ...manifest.server, mcp_config: { command: 'node', args: ['${DOCUMENTS}/x'] } },
    };
    expect(() => resolveMcpConfig(odd, '/opt/bundle', { school_url: 'https://school.example' })).toThrow(
      /unknown substitution/,
    );
  });
});

describe('carryOptionalPeers', () => {
  const packageJson = {
    name: 'school-mcp',
    dependencies: { undici: '7.30.2' },
    devDependencies: { swagger2openapi: '7.0.8', 'oidc-provider': '8.8.1' },
    peerDependencies: { swagger2openapi: '7.0.8', 'oidc-provider': '8.8.1' },
    peerDependenciesMeta: { swagger2openapi: { optional: true }, 'oidc-provider': { optional: true } },
  };
  const lock = {
    lockfileVersion: 3,
    packages: { '': { ...packageJson }, 'node_modules/swagger2openapi': { version: '7.0.8', dev: true } },
  };

  it('makes the carried optional peers plain dependencies in package.json and the lock, and leaves the others optional', () => {
    const carried = carryOptionalPeers(packageJson, lock, ['swagger2openapi']);
    for (const manifest of [
      carried.packageJson,
      (carried.lock['packages'] as Record<string, Record<string, unknown>>)['']!,
    ]) {
      expect(manifest['dependencies']).toEqual({ undici: '7.30.2', swagger2openapi: '7.0.8' });
      expect(manifest['devDependencies']).toEqual({ 'oidc-provider': '8.8.1' });
      expect(manifest['peerDependencies']).toEqual({ 'oidc-provider': '8.8.1' });
      expect(manifest['peerDependenciesMeta']).toEqual({ 'oidc-provider': { optional: true } });
    }
    expect((carried.lock['packages'] as Record<string, unknown>)['node_modules/swagger2openapi']).toEqual({
      version: '7.0.8',
      dev: true,
    });
    expect(packageJson.dependencies).toEqual({ undici: '7.30.2' });
  });

  it('refuses a package that is not an optional peer', () => {
    expect(() => carryOptionalPeers(packageJson, lock, ['left-pad'])).toThrow(
      /left-pad is not an optional peer dependency/,
    );
  });
});
