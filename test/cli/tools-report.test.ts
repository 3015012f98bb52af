import { describe, expect, it } from 'vitest';
import { buildToolsReport, formatToolsReport } from '../../src/cli/index.js';
import { estimateTokens, type ToolsReportInput } from '../../src/cli/tools-report.js';

const input: ToolsReportInput = {
  location: 'https://school.example/openapi.json',
  toolsets: [
    { name: 'courses', operations: 3, selected: 3, listed: 2 },
    { name: 'orders', operations: 2, selected: 0, listed: 0 },
  ],
  discovery: true,
  tools: [
    {
      definition: { name: 'who_am_i', annotations: { readOnlyHint: true, idempotentHint: true } },
      toolset: undefined,
      scopeAlternatives: [],
    },
    {
      definition: { name: 'list_courses', annotations: { readOnlyHint: true } },
      toolset: 'courses',
      scopeAlternatives: [['courses:read'], ['courses:write']],
    },
    {
      definition: { name: 'replace_course', annotations: { destructiveHint: true, idempotentHint: true } },
      toolset: 'courses',
      scopeAlternatives: [['courses:write']],
    },
    {
      definition: { name: 'search_operations', annotations: { readOnlyHint: true } },
      toolset: undefined,
      scopeAlternatives: [[]],
    },
  ],
  warnings: ['Skipped path "x": it does not start with "/".'],
};

describe('the tools report', () => {
  it('estimates tokens as UTF-8 bytes / 4, rounded up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('é'.repeat(4))).toBe(2);
  });

  it('sizes each definition and the whole list as the host receives it', () => {
    const report = buildToolsReport(input);
    const list = JSON.stringify({ tools: input.tools.map((tool) => tool.definition) });
    expect(report.total).toEqual({ tools: 4, bytes: list.length, tokens: Math.ceil(list.length / 4) });
    expect(report.tools[1]).toEqual({
      name: 'list_courses',
      toolset: 'courses',
      scopes: ['courses:read', 'courses:write'],
      readOnly: true,
      destructive: false,
      idempotent: false,
      tokens: Math.ceil(JSON.stringify(input.tools[1]!.definition).length / 4),
    });
    expect(report.tools[3]!.scopes).toEqual([]);
  });

  it('prints toolsets, a row per tool, the total and every warning', () => {
    const text = formatToolsReport(buildToolsReport(input)).join('\n');
    expect(text).toContain('  courses     3  2 listed, 1 by search');
    expect(text).toContain('  orders      2  0 listed, 2 not served');
    expect(text).toMatch(/^ {2}list_courses +courses +courses:read \| courses:write +read-only +~\d+$/m);
    expect(text).toMatch(/^ {2}replace_course +courses +courses:write +destructive, idempotent +~\d+$/m);
    expect(text).toMatch(/^tools\/list: 4 tools, 0\.\d KiB, ~\d+ tokens \(estimate: UTF-8 bytes \/ 4\)$/m);
    expect(text).toMatch(/warnings \(1\):\n {2}- Skipped path "x"/);
  });

  it('says when there is no warning', () => {
    expect(formatToolsReport(buildToolsReport({ ...input, warnings: [] }))).toContain('warnings: none');
  });
});
