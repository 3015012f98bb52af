/**
 * The sandbox school's catalogue, reviewed as a file: any change to names, descriptions, schemas,
 * annotations or toolsets shows up as a diff of test/snapshots/sandbox-catalog.json.
 */
import { describe, expect, it } from 'vitest';
import { createSandbox } from '@school-mcp/sandbox';
import type { FetchLike } from '../../src/network/index.js';
import { buildCatalog, loadDocument, TOOL_NAME_PATTERN, type ToolCatalog } from '../../src/openapi/index.js';

const SCHOOL = 'http://127.0.0.1:1';

async function sandboxCatalog(): Promise<ToolCatalog> {
  const sandbox = createSandbox(SCHOOL, {});
  try {
    const fetchFromSandbox: FetchLike = (url, init) => sandbox.fetch(new Request(url, init));
    const loaded = await loadDocument({ schoolUrl: SCHOOL, fetch: fetchFromSandbox });
    return await buildCatalog(loaded.document, { schoolUrl: SCHOOL });
  } finally {
    await sandbox.close();
  }
}

describe('the sandbox school catalogue', () => {
  it('builds without warnings, with valid names and scope toolsets', async () => {
    const catalog = await sandboxCatalog();
    expect(catalog.warnings).toEqual([]);
    expect(catalog.operations.length).toBeGreaterThan(0);
    for (const operation of catalog.operations) expect(operation.toolName).toMatch(TOOL_NAME_PATTERN);
    expect([...catalog.toolsets.keys()]).toContain('courses');
    expect(catalog.apiBase?.origin).toBe(SCHOOL);
  });

  it('matches the reviewed snapshot', async () => {
    const catalog = await sandboxCatalog();
    const snapshot = {
      toolsets: Object.fromEntries([...catalog.toolsets].map(([name, operations]) => [name, operations.map((operation) => operation.toolName)])),
      tools: catalog.operations.map((operation) => ({
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
        body: operation.body ? { contentType: operation.body.contentType, mode: operation.body.mode, fileProperties: operation.body.fileProperties ?? [] } : null,
      })),
    };
    await expect(`${JSON.stringify(snapshot, null, 2)}\n`).toMatchFileSnapshot('../snapshots/sandbox-catalog.json');
  });
});
