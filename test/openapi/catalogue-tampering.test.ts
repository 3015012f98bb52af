/**
 * A cached catalogue edited by someone who can write it (the same OS user): what it points the
 * token at and the schemas it lists are checked again, so it is ignored and built again, or its
 * schemas held to the budgets, as a built catalogue's are (ST-15, ST-16).
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../src/network/index.js';
import { fitListedSchemas, loadCatalogue } from '../../src/openapi/index.js';
import { isApiBaseOf } from '../../src/openapi/server-base.js';
import { MAX_TOOL_SCHEMA_BYTES } from '../../src/openapi/schema-budget.js';

const SCHOOL = 'https://school.example';
const YAML = [
  'openapi: 3.0.3',
  'info: {title: Cached, version: "1"}',
  'servers: [{url: /api/v1}]',
  'paths:',
  '  /courses:',
  '    get: {operationId: list_courses, parameters: [{name: page, in: query, schema: {type: integer}}], responses: {"200": {description: ok, content: {application/json: {schema: {type: array, items: {type: string}}}}}}}',
  '    post: {operationId: create_course, requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {title: {type: string}}}}}}, responses: {"201": {description: created}}}',
  '',
].join('\n');
const noNetwork: FetchLike = () => Promise.reject(new Error('no network in this test'));

let directory: string;
let documentPath: string;
let debug: string[];
let warnings: string[];

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'catalogue-tampering-'));
  documentPath = join(directory, 'school.yaml');
  await writeFile(documentPath, YAML);
  debug = [];
  warnings = [];
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const load = () =>
  loadCatalogue({
    load: { schoolUrl: SCHOOL, openapi: documentPath, fetch: noNetwork, configDirectory: join(directory, 'config') },
    catalogue: { schoolUrl: SCHOOL, onSchemaWarning: (message) => warnings.push(message) },
    version: '1.2.3',
    debug: (message) => debug.push(message),
  });

/** Stores the catalogue, lets `edit` change the stored record, writes it back as school-mcp would (0600), and loads again. */
async function loadEdited(edit: (record: Record<string, unknown>) => void) {
  const first = await load();
  await first.store!();
  const folder = join(directory, 'config', 'openapi-cache');
  const name = (await readdir(folder)).find((file) => file.startsWith('catalogue-'))!;
  const record = JSON.parse(await readFile(join(folder, name), 'utf8')) as Record<string, unknown>;
  edit(record);
  await writeFile(join(folder, name), JSON.stringify(record), { mode: 0o600 });
  return load();
}

const operationNamed = (record: Record<string, unknown>, toolName: string) =>
  (record['operations'] as Record<string, unknown>[]).find((operation) => operation['toolName'] === toolName)!;

describe('a cached catalogue pointing elsewhere', () => {
  it('ST-15 tells an API base on the school origin from any other', () => {
    const base = { baseUrl: 'https://school.example/api/v1', origin: SCHOOL };
    expect(isApiBaseOf(base, SCHOOL)).toBe(true);
    expect(isApiBaseOf({ baseUrl: SCHOOL, origin: SCHOOL }, 'https://school.example/')).toBe(true);
    expect(isApiBaseOf(undefined, undefined)).toBe(true);
    for (const [baseUrl, origin] of [
      ['https://attacker.example/api/v1', 'https://attacker.example'],
      ['https://attacker.example/api/v1', SCHOOL],
      ['https://school.example.attacker.example/api', SCHOOL],
      ['http://school.example/api/v1', SCHOOL],
      ['https://school.example:8443/api/v1', SCHOOL],
      ['https://user:pass@school.example/api/v1', SCHOOL],
      ['https://school.example/api/v1?x=1', SCHOOL],
      ['https://school.example/api/v1#x', SCHOOL],
      ['https://school.example/api/v1/', SCHOOL],
      ['//attacker.example/api', SCHOOL],
      ['not a url', SCHOOL],
    ] as const) {
      expect(isApiBaseOf({ baseUrl, origin }, SCHOOL), baseUrl).toBe(false);
    }
    expect(isApiBaseOf(undefined, SCHOOL)).toBe(false);
    expect(isApiBaseOf(base, undefined)).toBe(false);
  });

  it('ST-15 ignores a cached catalogue whose API base was moved to another origin, says so at debug, and builds it again', async () => {
    const again = await loadEdited((record) => {
      record['apiBase'] = {
        baseUrl: 'https://attacker.example/api/v1',
        origin: 'https://attacker.example',
        warnings: [],
      };
    });
    expect(again.store).toBeDefined();
    expect(debug.at(-1)).toMatch(
      /^ignored the cached tool catalogue: its API base "https:\/\/attacker\.example\/api\/v1" is not on the school's origin/,
    );
    expect(again.catalogue.apiBase).toMatchObject({ baseUrl: 'https://school.example/api/v1', origin: SCHOOL });
  });

  it('ST-15 ignores one whose API base keeps the origin field but points elsewhere, or was removed', async () => {
    const moved = await loadEdited((record) => {
      record['apiBase'] = { baseUrl: 'https://attacker.example/api/v1', origin: SCHOOL, warnings: [] };
    });
    expect(moved.store).toBeDefined();
    expect(moved.catalogue.apiBase?.baseUrl).toBe('https://school.example/api/v1');
    const removed = await loadEdited((record) => {
      delete record['apiBase'];
    });
    expect(removed.store).toBeDefined();
    expect(removed.catalogue.apiBase?.baseUrl).toBe('https://school.example/api/v1');
  });
});

describe('a cached catalogue listing oversized schemas', () => {
  /** An object schema of `count` properties named with `letter`: about `count` × 40 bytes of JSON. */
  function bigSchema(count: number, letter: string): Record<string, unknown> {
    const properties: Record<string, unknown> = {};
    for (let index = 0; index < count; index += 1) properties[`${letter.repeat(20)}_${index}`] = { type: 'string' };
    return { type: 'object', properties };
  }

  it('ST-16 ignores a catalogue whose tool schema is past the 64 KiB budget, and builds it again', async () => {
    const again = await loadEdited((record) => {
      const operation = operationNamed(record, 'create_course');
      operation['inputSchema'] = bigSchema(7_000, 'a');
      operation['schemaBytes'] = 280_000;
    });
    expect(JSON.stringify(bigSchema(7_000, 'a')).length).toBeGreaterThan(4 * MAX_TOOL_SCHEMA_BYTES);
    expect(again.store).toBeDefined();
    expect(debug.at(-1)).toMatch(/^ignored the cached tool catalogue/);
    expect(
      JSON.stringify(
        again.catalogue.operations.find((operation) => operation.toolName === 'create_course')!.inputSchema,
      ).length,
    ).toBeLessThan(1_000);
  });

  it('ST-16 ignores a catalogue whose stored schema size is less than its schemas take, so the tool list budget cannot be misled', async () => {
    const again = await loadEdited((record) => {
      operationNamed(record, 'list_courses')['schemaBytes'] = 0;
    });
    expect(again.store).toBeDefined();
    expect(debug.at(-1)).toMatch(/^ignored the cached tool catalogue/);
  });

  it('ST-16 measures restored schemas in bytes when first read: one past the budget only in UTF-8 is listed simplified, with the warning', async () => {
    // 1,400 properties named with a two-byte letter: under 64 Ki characters, over 64 KiB of UTF-8.
    const wide = bigSchema(1_400, 'é');
    const chars = JSON.stringify(wide).length;
    expect(chars).toBeLessThan(MAX_TOOL_SCHEMA_BYTES);
    expect(Buffer.byteLength(JSON.stringify(wide))).toBeGreaterThan(MAX_TOOL_SCHEMA_BYTES);
    const again = await loadEdited((record) => {
      const operation = operationNamed(record, 'create_course');
      operation['inputSchema'] = wide;
      operation['schemaBytes'] = chars;
    });
    expect(again.store).toBeUndefined();
    const create = again.catalogue.operations.find((operation) => operation.toolName === 'create_course')!;
    const listed = fitListedSchemas([create]).operations[0]!;
    expect(Buffer.byteLength(JSON.stringify(listed.inputSchema))).toBeLessThanOrEqual(MAX_TOOL_SCHEMA_BYTES);
    expect(JSON.stringify(listed.inputSchema)).not.toContain('éééé');
    expect(warnings).toContain(
      'create_course: its input schema is over the 64 KiB a tool schema may take; it is listed simplified (the body as one JSON value).',
    );
  });
});
