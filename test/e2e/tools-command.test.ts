/**
 * `school-mcp tools` as an administrator runs it before connecting an agent: the built CLI as a
 * child process, against the sandbox school over real HTTP and against the third-party documents
 * kept in test/fixtures/openapi. Its listing must be what a real server gives a host.
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolsReport } from '../../src/cli/index.js';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { MAIN_JS, startStdioServer } from '../helpers/mcp-stdio.js';
import { CORPUS } from '../openapi/support/corpus.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/openapi');
/** Every third-party document of the corpus: the command must work on each. */
const FIXTURE_DOCUMENTS = readdirSync(FIXTURES)
  .filter((file) => /\.(ya?ml|json)$/.test(file))
  .sort();
const OPERATIONS = new Map<string, number>(CORPUS.map(({ file, operations }) => [file, operations]));

let sandbox: RunningSandbox;
let home: string;

beforeAll(async () => {
  sandbox = await startSandbox({});
  home = await mkdtemp(join(tmpdir(), 'school-mcp-tools-'));
});

afterAll(async () => {
  await sandbox.close();
  await rm(home, { recursive: true, force: true });
});

function tools(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [MAIN_JS, 'tools', '--config-dir', home, ...args],
      { env: { PATH: process.env.PATH ?? '', HOME: home }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr }),
    );
  });
}

async function report(args: readonly string[]): Promise<ToolsReport> {
  const result = await tools([...args, '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as ToolsReport;
}

describe('school-mcp tools against the sandbox school', () => {
  // The default listing, read by two tests: one run of the CLI serves both.
  let defaultListing: Promise<ToolsReport> | undefined;
  const sandboxListing = () => (defaultListing ??= report(['--school', sandbox.url]));

  it('lists exactly the tools a host receives from the server, in its order, and their total', async () => {
    const listing = await sandboxListing();
    const server = await startStdioServer({ args: ['--school', sandbox.url, '--no-browser'] });
    try {
      const { tools: served } = await server.client.listTools();
      expect(listing.tools.map((tool) => tool.name)).toEqual(served.map((tool) => tool.name));
      expect(listing.total.tools).toBe(served.length);
      // The client's own parsing may add or drop optional fields; the size stays within a few percent.
      const servedBytes = Buffer.byteLength(JSON.stringify({ tools: served }), 'utf8');
      expect(Math.abs(listing.total.bytes - servedBytes) / servedBytes).toBeLessThan(0.05);
    } finally {
      await server.close();
    }
    expect(listing.total.tokens).toBe(Math.ceil(listing.total.bytes / 4));
    expect(listing.tokenCount).toBe('estimate: UTF-8 bytes / 4');
  });

  it('gives each tool its toolset, scopes, hints and size, and each toolset how it is served', async () => {
    const listing = await sandboxListing();
    const byName = new Map(listing.tools.map((tool) => [tool.name, tool]));
    // The default list is compact: a read lists readOnlyHint alone (MCP reads idempotentHint only beside readOnlyHint false).
    expect(byName.get('list_courses')).toMatchObject({
      toolset: 'courses',
      scopes: ['courses:read'],
      readOnly: true,
      destructive: false,
      idempotent: false,
    });
    expect(byName.get('create_coupon')).toMatchObject({
      toolset: 'coupons',
      scopes: ['coupons:write'],
      readOnly: false,
      destructive: false,
    });
    expect(byName.get('who_am_i')).toMatchObject({ toolset: null, scopes: [], readOnly: true });
    expect(byName.get('sign_out')).toMatchObject({ toolset: null, readOnly: false, destructive: true });
    expect(byName.has('search_operations')).toBe(true);
    for (const tool of listing.tools) expect(tool.tokens).toBeGreaterThan(10);
    const courses = listing.toolsets.find((toolset) => toolset.name === 'courses')!;
    expect(courses.listed).toBe(2);
    expect(courses.operations).toBe(6);
    const searched = listing.toolsets.filter((toolset) => toolset.listed === 0);
    expect(searched.length).toBeGreaterThan(3);
    expect(listing.discovery).toBe(true);
  });

  it('follows --read-only and --toolsets as serving does', async () => {
    const readOnly = await report(['--school', sandbox.url, '--read-only', '--toolsets', 'all']);
    const operations = readOnly.tools.filter((tool) => tool.toolset !== null);
    expect(operations.length).toBeGreaterThan(20);
    expect(operations.every((tool) => tool.readOnly)).toBe(true);
    const dynamic = await report(['--school', sandbox.url, '--toolsets', 'dynamic']);
    expect(dynamic.tools.map((tool) => tool.name).sort()).toEqual([
      'call_operation',
      'call_read_operation',
      'describe_operation',
      'search_operations',
      'sign_out',
      'who_am_i',
    ]);
    const readOnlyDynamic = await report(['--school', sandbox.url, '--read-only', '--toolsets', 'dynamic']);
    expect(readOnlyDynamic.tools.map((tool) => tool.name).sort()).toEqual([
      'call_read_operation',
      'describe_operation',
      'search_operations',
      'sign_out',
      'who_am_i',
    ]);
  });

  it('prints the same as aligned text, with the total and the warnings section', async () => {
    const result = await tools(['--school', sandbox.url, '--toolsets', 'courses']);
    expect(result.code).toBe(0);
    const text = result.stdout;
    expect(text).toContain(`document: ${sandbox.url}/openapi.json`);
    expect(text).toMatch(/^ {2}courses +\d+ {2}\d+ listed$/m);
    expect(text).toMatch(/^ {2}list_courses +courses +courses:read +read-only, idempotent +~\d+$/m);
    expect(text).toMatch(/^tools\/list: \d+ tools, [\d.]+ KiB, ~[\d,]+ tokens \(estimate: UTF-8 bytes \/ 4\)$/m);
    expect(text).toMatch(/^warnings: none$/m);
  });
});

describe('school-mcp tools against third-party documents', () => {
  it.each(FIXTURE_DOCUMENTS)(
    'lists every operation of %s as a tool with --toolsets all, no school needed',
    async (file) => {
      const listing = await report(['--openapi', join(FIXTURES, file), '--toolsets', 'all']);
      const operations = listing.toolsets.reduce((sum, toolset) => sum + toolset.operations, 0);
      expect(operations, `${file} needs a row in test/openapi/support/corpus.ts`).toBe(OPERATIONS.get(file));
      expect(listing.tools.filter((tool) => tool.toolset !== null)).toHaveLength(operations);
      expect(new Set(listing.tools.map((tool) => tool.name)).size).toBe(listing.tools.length);
      expect(listing.total.tokens).toBeGreaterThan(listing.tools.reduce((sum, tool) => sum + tool.tokens, 0) * 0.99);
    },
    60_000,
  );

  it('reports every warning of the document: skipped paths, undeclared parameters, unresolved references', async () => {
    const document = join(home, 'flawed.json');
    await writeFile(
      document,
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'flawed', version: '1' },
        paths: {
          'no-leading-slash': { get: { operationId: 'lost', responses: { 200: { description: 'ok' } } } },
          '/items/{id}': {
            get: {
              operationId: 'get_item',
              responses: {
                200: {
                  description: 'ok',
                  content: { 'application/json': { schema: { $ref: '#/components/schemas/Missing' } } },
                },
              },
            },
          },
        },
      }),
    );
    const listing = await report(['--openapi', document]);
    expect(listing.tools.map((tool) => tool.name)).toContain('get_item');
    expect(listing.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Skipped path "no-leading-slash"/),
        expect.stringMatching(/path parameter "id" is not declared/),
        expect.stringMatching(/Unresolved reference "#\/components\/schemas\/Missing"/),
      ]),
    );
    const text = await tools(['--openapi', document]);
    expect(text.stdout).toMatch(/^warnings \(3\):\n {2}- /m);
  });
});
