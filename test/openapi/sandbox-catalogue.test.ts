/**
 * The sandbox school's catalogue, reviewed as a file: any change to names, descriptions, schemas,
 * annotations or toolsets shows up as a diff of test/snapshots/sandbox-catalogue.json.
 */
import { describe, expect, it } from 'vitest';
import { createSandbox } from '@school-mcp/sandbox';
import type { FetchLike } from '../../src/network/index.js';
import { buildCatalogue, loadDocument, type ToolCatalogue } from '../../src/openapi/index.js';
import { TOOL_NAME_PATTERN } from '../../src/openapi/tool-names.js';

const SCHOOL = 'http://127.0.0.1:1';

async function sandboxCatalogue(): Promise<ToolCatalogue> {
  const sandbox = createSandbox(SCHOOL, {});
  try {
    const fetchFromSandbox: FetchLike = (url, init) => sandbox.fetch(new Request(url, init));
    const loaded = await loadDocument({ schoolUrl: SCHOOL, fetch: fetchFromSandbox });
    return await buildCatalogue(loaded.document, { schoolUrl: SCHOOL });
  } finally {
    await sandbox.close();
  }
}

describe('the sandbox school catalogue', () => {
  it('builds without warnings, with valid names and scope toolsets', async () => {
    const catalogue = await sandboxCatalogue();
    expect(catalogue.warnings).toEqual([]);
    expect(catalogue.operations.length).toBeGreaterThan(0);
    for (const operation of catalogue.operations) expect(operation.toolName).toMatch(TOOL_NAME_PATTERN);
    expect([...catalogue.toolsets.keys()]).toContain('courses');
    expect(catalogue.apiBase?.origin).toBe(SCHOOL);
  });

  it('matches the reviewed snapshot', async () => {
    const catalogue = await sandboxCatalogue();
    const snapshot = {
      toolsets: Object.fromEntries(
        [...catalogue.toolsets].map(([name, operations]) => [name, operations.map((operation) => operation.toolName)]),
      ),
      tools: catalogue.operations.map((operation) => ({
        name: operation.toolName,
        route: `${operation.method.toUpperCase()} ${operation.pathTemplate}`,
        title: operation.title,
        description: operation.description,
        toolset: operation.toolset,
        scopeAlternatives: operation.scopeAlternatives,
        requiredScopes: operation.requiredScopes,
        annotations: operation.annotations,
        inputSchema: operation.inputSchema,
        outputSchema: operation.outputSchema ?? null,
        body: operation.body
          ? {
              contentType: operation.body.contentType,
              mode: operation.body.mode,
              fileProperties: operation.body.fileProperties ?? [],
            }
          : null,
      })),
    };
    await expect(`${JSON.stringify(snapshot, null, 2)}\n`).toMatchFileSnapshot('../snapshots/sandbox-catalogue.json');
  });
});
