import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scopeRoles, type Operation, type ToolCatalogue } from '../../src/openapi/index.js';
import { DEFAULT_TOOLSETS, planTools } from '../../src/server/index.js';
import { DEFAULT_TOOLS, DIRECT_TOOL_BUDGET } from '../../src/server/tool-plan.js';
import { serverInstructions } from '../../src/server/instructions.js';

function operation(toolName: string, toolset: string): Operation {
  return {
    toolName,
    operationId: toolName,
    method: 'get',
    pathTemplate: `/${toolName}`,
    title: toolName,
    description: toolName,
    tags: [],
    parameters: [],
    body: undefined,
    scopeAlternatives: [[`${toolset}:read`]],
    requiredScopes: [`${toolset}:read`],
    toolset,
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: undefined,
    annotations: { readOnlyHint: true },
    deprecated: false,
  };
}

function catalogue(operations: Operation[]): ToolCatalogue {
  const toolsets = new Map<string, Operation[]>();
  for (const op of operations) toolsets.set(op.toolset, [...(toolsets.get(op.toolset) ?? []), op]);
  return {
    operations,
    byName: new Map(operations.map((op) => [op.toolName, op])),
    toolsets,
    scopeDescriptions: {},
    apiBase: undefined,
    scopeRoles: scopeRoles([]),
    groupedBy: 'scopes',
    upgradedFrom: undefined,
    warnings: [],
  };
}

const many = [
  ...Array.from({ length: 30 }, (_, i) => operation(`course_${i}`, 'courses')),
  ...Array.from({ length: 30 }, (_, i) => operation(`event_${i}`, 'events')),
  ...Array.from({ length: 10 }, (_, i) => operation(`order_${i}`, 'orders')),
];

describe('planTools', () => {
  it('lists a small catalogue whole, without discovery tools', () => {
    const small = catalogue(many.slice(0, 10));
    expect(planTools(small, { mode: 'default' }, false)).toEqual({
      direct: small.operations,
      discovery: false,
      compactListing: true,
    });
  });

  it("by default lists the operations of the administrator's tasks when the document names most of them, compactly", () => {
    const tasks = DEFAULT_TOOLS.map((name) => operation(name, name.split('_').at(-1)!));
    const plan = planTools(catalogue([...many, ...tasks]), { mode: 'default' }, false);
    expect(plan.direct.map((op) => op.toolName)).toEqual([...DEFAULT_TOOLS]);
    expect(plan).toMatchObject({ discovery: true, compactListing: true });
  });

  it('names only operations the sandbox school has, so a rename cannot drop the default to the fallback unnoticed', () => {
    const snapshot = JSON.parse(
      readFileSync(resolve(import.meta.dirname, '../snapshots/sandbox-catalogue.json'), 'utf8'),
    ) as { tools: { name: string }[] };
    const names = new Set(snapshot.tools.map((tool) => tool.name));
    expect(DEFAULT_TOOLS.filter((name) => !names.has(name))).toEqual([]);
  });

  it('falls back to the preferred toolsets when the document names few of those operations', () => {
    const few = DEFAULT_TOOLS.slice(0, 3).map((name) => operation(name, 'misc'));
    const plan = planTools(catalogue([...many, ...few]), { mode: 'default' }, false);
    expect(plan.direct.every((op) => DEFAULT_TOOLSETS.includes(op.toolset))).toBe(true);
  });

  it('by default keeps the preferred toolsets within the budget and reaches the rest through discovery', () => {
    const plan = planTools(catalogue(many), { mode: 'default' }, false);
    expect(plan.discovery).toBe(true);
    expect(plan.direct.length).toBeLessThanOrEqual(DIRECT_TOOL_BUDGET);
    expect(plan.direct.every((op) => DEFAULT_TOOLSETS.includes(op.toolset))).toBe(true);
    expect(plan.direct.map((op) => op.toolset)).toContain('orders');
  });

  it('keeps the whole plan within the 40 tools some hosts read, with the five tools of its own', () => {
    expect(DIRECT_TOOL_BUDGET + 5).toBeLessThanOrEqual(40);
  });

  it('lists only discovery tools in dynamic mode, and everything selected for explicit toolsets', () => {
    expect(planTools(catalogue(many), { mode: 'dynamic' }, false)).toEqual({ direct: [], discovery: true });
    const all = catalogue(many);
    // Named toolsets are listed in full: output schemas, checks and every hint.
    expect(planTools(all, { mode: 'toolsets', toolsets: 'all' }, false)).toEqual({
      direct: all.operations,
      discovery: false,
    });
  });

  it('treats an exact --tools list as exactly these tools', () => {
    const exact = catalogue(many.slice(0, 3));
    expect(planTools(exact, { mode: 'dynamic' }, true)).toEqual({ direct: exact.operations, discovery: false });
  });
});

describe('serverInstructions', () => {
  it('names the school and the toolsets, and mentions discovery only when it is listed', () => {
    const withDiscovery = serverInstructions('academy.example', { direct: [], discovery: true }, ['courses', 'orders']);
    expect(withDiscovery).toContain('academy.example');
    expect(withDiscovery).toContain('courses, orders');
    expect(withDiscovery).toContain('search_operations');
    expect(serverInstructions('academy.example', { direct: [], discovery: false }, ['courses'])).not.toContain(
      'search_operations',
    );
  });
});
