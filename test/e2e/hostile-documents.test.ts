/**
 * The built server on documents written to exhaust it (API-11), as a host meets them: the
 * attack documents are generated, passed with --openapi, and the server must answer
 * `tools/list` with a bounded list. Sizes and completion only; times and memory are in
 * BENCHMARKS.md ("Hostile documents").
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fanOutDocument } from '../../tools/bench/hostile-documents.js';
import { startStdioServer, type StdioServer } from '../helpers/mcp-stdio.js';

/** The bound for the default configuration's list on the 5,000-operation document. */
const DEFAULT_LIST_LIMIT = 8 * 1024 * 1024;

describe('hostile documents through the built server', () => {
  let directory: string;
  const documents: Record<string, string> = {};

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'school-mcp-hostile-'));
    for (const operations of [500, 5_000]) {
      documents[operations] = join(directory, `fan-out-${operations}.json`);
      await writeFile(documents[operations]!, JSON.stringify(fanOutDocument(operations)));
    }
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  async function listTools(
    args: readonly string[],
  ): Promise<{ server: StdioServer; tools: Record<string, unknown>[]; bytes: number }> {
    const server = await startStdioServer({ args: ['--school', 'http://127.0.0.1:9', ...args] });
    const list = await server.client.listTools();
    return { server, tools: list.tools as Record<string, unknown>[], bytes: Buffer.byteLength(JSON.stringify(list)) };
  }

  it('API-11 answers tools/list for 5,000 fan-out operations in the default configuration, under 8 MB', async () => {
    const { server, tools, bytes } = await listTools(['--openapi', documents[5_000]!]);
    try {
      expect(bytes).toBeLessThan(DEFAULT_LIST_LIMIT);
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining(['get_thing_0', 'create_thing_1', 'search_operations', 'call_operation']),
      );
      const create = tools.find((tool) => tool.name === 'create_thing_1')!;
      expect(Object.keys((create['inputSchema'] as { properties: object }).properties)).toEqual(['body']);
      expect(server.stderr.join('\n')).toContain('create_thing_1: its input schema is over');
      // A tool reached through discovery is converted when described, within the same budget.
      const described = await server.client.callTool({
        name: 'describe_operation',
        arguments: { name: 'create_thing_4999' },
      });
      expect(JSON.stringify(described.structuredContent)).toContain('too large to list');
    } finally {
      await server.close();
    }
  });

  it('API-11 answers tools/list with --toolsets all on the 500-operation document, every tool listed', async () => {
    const { server, tools, bytes } = await listTools(['--openapi', documents[500]!, '--toolsets', 'all']);
    try {
      expect(tools.filter((tool) => String(tool.name).includes('_thing_'))).toHaveLength(500);
      expect(bytes).toBeLessThan(DEFAULT_LIST_LIMIT);
    } finally {
      await server.close();
    }
  });
});
