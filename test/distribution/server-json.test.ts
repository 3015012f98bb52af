/**
 * `server.json`, what the MCP registry lists: valid against the registry's published schema, in
 * step with package.json, and describing only options the server really reads.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { compileSchemaFile, readJson } from '../helpers/json-schema.js';

const root = resolve(import.meta.dirname, '../..');
const SCHEMAS = join(root, 'test/fixtures/schemas');
const REGISTRY_SCHEMA = 'mcp-registry-server-2025-12-11.schema.json';
const REGISTRY_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

const packageJson = readJson(join(root, 'package.json'));
const server = readJson(join(root, 'server.json'));
const checkServerJson = compileSchemaFile(join(SCHEMAS, REGISTRY_SCHEMA));

interface KeyValueInput {
  name: string;
  description?: string;
  format?: string;
  isSecret?: boolean;
  choices?: string[];
  default?: string;
}

const npmPackage = server.packages.find((entry: { registryType: string }) => entry.registryType === 'npm');
const environmentVariables: KeyValueInput[] = npmPackage.environmentVariables;

describe('server.json', () => {
  it('is the registry schema as published, byte for byte', () => {
    const provenance = readFileSync(join(SCHEMAS, 'PROVENANCE.md'), 'utf8');
    const row = provenance.split('\n').find((line) => line.startsWith(`| \`${REGISTRY_SCHEMA}\``));
    expect(row, 'provenance row').toBeDefined();
    expect(row).toContain(REGISTRY_SCHEMA_URL);
    const sha256 = createHash('sha256')
      .update(readFileSync(join(SCHEMAS, REGISTRY_SCHEMA)))
      .digest('hex');
    expect(row).toContain(sha256);
    expect(readJson(join(SCHEMAS, REGISTRY_SCHEMA)).$id).toBe(REGISTRY_SCHEMA_URL);
  });

  it('names that schema and validates against it', () => {
    expect(server.$schema).toBe(REGISTRY_SCHEMA_URL);
    expect(checkServerJson(server)).toEqual([]);
  });

  it('is checked for real: the schema refuses a version range and a name without a namespace', () => {
    expect(checkServerJson({ ...server, name: 'school-mcp' })).not.toEqual([]);
    expect(checkServerJson({ ...server, packages: [{ ...npmPackage, version: 'latest' }] })).not.toEqual([]);
    expect(checkServerJson({ ...server, description: 'x'.repeat(101) })).not.toEqual([]);
  });

  it('has the version of package.json, for itself and for its npm package', () => {
    expect(server.version).toBe(packageJson.version);
    expect(npmPackage.version).toBe(packageJson.version);
  });

  it('points at this npm package, which claims the server name (the registry checks mcpName)', () => {
    expect(npmPackage.identifier).toBe(packageJson.name);
    expect(npmPackage.registryBaseUrl).toBe('https://registry.npmjs.org');
    expect(packageJson.mcpName).toBe(server.name);
  });

  it("runs over stdio with --school, as docs/install.md's entry does", () => {
    expect(npmPackage.transport).toEqual({ type: 'stdio' });
    expect(npmPackage.packageArguments).toEqual([
      expect.objectContaining({ type: 'named', name: '--school', isRequired: true }),
    ]);
    const placeholder = npmPackage.packageArguments[0].placeholder;
    expect(loadConfig(['--school', placeholder], {}).schoolUrl?.href).toBe(new URL(placeholder).href);
  });

  it('DIST-01 marks the client secret, and only it, as secret', () => {
    const secret = environmentVariables.filter((variable) => variable.isSecret).map((variable) => variable.name);
    expect(secret).toEqual(['SCHOOL_MCP_CLIENT_SECRET']);
  });

  it.each(environmentVariables.map((variable) => [variable.name, variable] as const))(
    '%s is described and read by the server',
    (_name, variable) => {
      expect(variable.description?.length).toBeGreaterThan(20);
      const args = ['--school', 'https://school.example'];
      const sample =
        variable.choices?.find((choice) => choice !== variable.default) ??
        (variable.format === 'boolean' ? 'true' : 'sample-value');
      expect(loadConfig(args, { [variable.name]: sample })).not.toEqual(loadConfig(args, {}));
    },
  );
});
