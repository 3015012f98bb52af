/** Documents nested deeper than any walk of them can recurse: refused with a code, never a stack overflow. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalogue, parseDocumentText } from '../../src/openapi/index.js';
import { MAX_DOCUMENT_DEPTH, jsonNestingExceeds } from '../../src/openapi/document-depth.js';
import { startStdioServer, type StdioServer } from '../helpers/mcp-stdio.js';

const HEAD = '{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "x-deep": ';

/** A JSON document with `levels` arrays inside one another under `x-deep`. */
function deepJson(levels: number): string {
  return `${HEAD}${'['.repeat(levels)}${']'.repeat(levels)}}`;
}

/** Loads the text the way the server does: parse, then check and convert. */
async function load(text: string, source = 'deep.json') {
  return buildCatalogue(parseDocumentText(text, { source }).document);
}

describe('nesting depth', () => {
  it('API-12 refuses a JSON document nested 100,000 levels deep with OPENAPI_TOO_DEEP', async () => {
    await expect(load(deepJson(100_000))).rejects.toMatchObject({
      code: 'OPENAPI_TOO_DEEP',
      message: expect.stringContaining('deep.json'),
    });
  });

  it('API-12 refuses deep YAML flow collections before the YAML parser recurses', async () => {
    const text = `openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\nx-deep: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`;
    await expect(load(text, 'deep.yaml')).rejects.toMatchObject({ code: 'OPENAPI_TOO_DEEP' });
  });

  it('API-12 refuses deep YAML block mappings', async () => {
    const levels = MAX_DOCUMENT_DEPTH + 10;
    const lines = Array.from({ length: levels }, (_, level) => `${' '.repeat(level + 2)}k${level}:`);
    const text = `openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\nx-deep:\n${lines.join('\n')} end\n`;
    await expect(load(text, 'deep.yaml')).rejects.toMatchObject({ code: 'OPENAPI_TOO_DEEP' });
  });

  it('API-12 refuses YAML aliases that nest to a depth no line of the text shows', async () => {
    const half = MAX_DOCUMENT_DEPTH - 20;
    const text = `openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\nx-a: &deep ${'['.repeat(half)}${']'.repeat(half)}\nx-b: ${'['.repeat(half)}*deep${']'.repeat(half)}\n`;
    await expect(load(text, 'aliases.yaml')).rejects.toMatchObject({ code: 'OPENAPI_TOO_DEEP' });
  });

  it('API-12 refuses an object graph handed in directly, past the parser', async () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 50_000; level++) deep = { next: deep };
    const document = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, 'x-deep': deep };
    await expect(buildCatalogue(document)).rejects.toMatchObject({ code: 'OPENAPI_TOO_DEEP' });
  });

  it('accepts the deepest document allowed, and brackets inside strings do not count', async () => {
    const brackets = '['.repeat(10_000);
    const text = `${HEAD.replace('"paths": {}', `"paths": {}, "x-text": "${brackets}\\"${brackets}"`)}${'['.repeat(MAX_DOCUMENT_DEPTH - 1)}${']'.repeat(MAX_DOCUMENT_DEPTH - 1)}}`;
    await expect(load(text)).resolves.toMatchObject({ operations: [] });
  });

  it('counts nesting in JSON text as JSON.parse sees it', () => {
    expect(jsonNestingExceeds('{"a": [[1]]}', 3)).toBe(false);
    expect(jsonNestingExceeds('{"a": [[[1]]]}', 3)).toBe(true);
    expect(jsonNestingExceeds('{"a": "[[[[\\"[[[["}', 1)).toBe(false);
    expect(jsonNestingExceeds('[] [] [] []', 1)).toBe(false);
  });

  it('API-12 keeps the built server up on a deeply nested document, every call naming OPENAPI_TOO_DEEP', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'school-mcp-deep-'));
    let server: StdioServer | undefined;
    try {
      const file = join(directory, 'deep.json');
      await writeFile(file, deepJson(200_000));
      // A document that cannot be read leaves the server up (STDIO-08): the host learns why from a call.
      server = await startStdioServer({
        configDir: directory,
        args: ['--openapi', file, '--school', 'http://127.0.0.1:9'],
      });
      const status = (await server.client.callTool({ name: 'school_status', arguments: {} })) as {
        isError?: boolean;
        content: { text?: string }[];
      };
      expect(status.isError).toBe(true);
      expect(status.content[0]!.text).toContain('OPENAPI_TOO_DEEP');
      expect(server.stderr.join('\n')).toContain('OPENAPI_TOO_DEEP');
      expect(server.stderr.join('\n')).not.toContain('Maximum call stack');
    } finally {
      await server?.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
