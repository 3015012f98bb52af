/**
 * `school-mcp tools`: the listing as a report an administrator reads before connecting an agent:
 * the toolsets, each listed tool with its scopes, hints and size, the total a host receives for
 * `tools/list`, and every warning. Pure.
 *
 * Sizes are estimates, UTF-8 bytes / 4, stated as such: no host's tokenizer is public for every
 * model, and a real one (js-tiktoken's ranks) weighs about 20 MB that every `npx` start of the
 * server would download. Measured against o200k_base on the sandbox's lists, it is within 1 % for
 * `--toolsets all` (30,282 counted, 29,941 estimated), about 7 % high for the compact default list
 * (5,617 counted, 6,021 estimated) and about 17 % high for `--toolsets dynamic` (732 and 856):
 * the compact lists hold more of the long words a tokenizer reads as one token.
 */

/** What the report is made from: the tool list as the server answers it, and its catalogue. */
export interface ToolsReportInput {
  readonly location: string;
  readonly toolsets: readonly {
    readonly name: string;
    readonly operations: number;
    readonly listed: number;
    readonly selected: number;
  }[];
  readonly discovery: boolean;
  readonly tools: readonly {
    readonly definition: {
      readonly name: string;
      readonly annotations?: {
        readonly readOnlyHint?: boolean;
        readonly destructiveHint?: boolean;
        readonly idempotentHint?: boolean;
      };
    };
    readonly toolset: string | undefined;
    readonly scopeAlternatives: readonly (readonly string[])[];
  }[];
  readonly warnings: readonly string[];
}

export interface ToolsReport {
  readonly document: string;
  readonly tokenCount: typeof TOKEN_COUNT;
  readonly toolsets: readonly {
    readonly name: string;
    readonly operations: number;
    /** Selected by the options (read-only, lists); the others are not served at all. */
    readonly selected: number;
    /** Listed as tools of their own; the rest of the selected ones are reached by search. */
    readonly listed: number;
  }[];
  readonly discovery: boolean;
  readonly tools: readonly {
    readonly name: string;
    readonly toolset: string | null;
    /** One entry per alternative the operation accepts, its scopes space-separated. */
    readonly scopes: readonly string[];
    readonly readOnly: boolean;
    readonly destructive: boolean;
    readonly idempotent: boolean;
    readonly tokens: number;
  }[];
  readonly total: { readonly tools: number; readonly bytes: number; readonly tokens: number };
  readonly warnings: readonly string[];
}

const TOKEN_COUNT = 'estimate: UTF-8 bytes / 4';

export function estimateTokens(json: string): number {
  return Math.ceil(Buffer.byteLength(json, 'utf8') / 4);
}

export function buildToolsReport(input: ToolsReportInput): ToolsReport {
  const listJson = JSON.stringify({ tools: input.tools.map((tool) => tool.definition) });
  return {
    document: input.location,
    tokenCount: TOKEN_COUNT,
    toolsets: input.toolsets.map(({ name, operations, selected, listed }) => ({ name, operations, selected, listed })),
    discovery: input.discovery,
    tools: input.tools.map(({ definition, toolset, scopeAlternatives }) => ({
      name: definition.name,
      toolset: toolset ?? null,
      scopes: scopeAlternatives.map((alternative) => alternative.join(' ')).filter((alternative) => alternative !== ''),
      readOnly: definition.annotations?.readOnlyHint === true,
      destructive: definition.annotations?.destructiveHint === true,
      idempotent: definition.annotations?.idempotentHint === true,
      tokens: estimateTokens(JSON.stringify(definition)),
    })),
    total: { tools: input.tools.length, bytes: Buffer.byteLength(listJson, 'utf8'), tokens: estimateTokens(listJson) },
    warnings: input.warnings,
  };
}

/** The report as aligned text for a terminal. */
export function formatToolsReport(report: ToolsReport): string[] {
  const lines = [`document: ${report.document}`, '', 'toolsets (operations, and how they are served):'];
  const toolsetWidth = Math.max(8, ...report.toolsets.map((toolset) => toolset.name.length));
  for (const toolset of report.toolsets) {
    const searched = report.discovery ? toolset.selected - toolset.listed : 0;
    const notServed = toolset.operations - toolset.listed - searched;
    const parts = [
      `${toolset.listed} listed`,
      ...(searched > 0 ? [`${searched} by search`] : []),
      ...(notServed > 0 ? [`${notServed} not served`] : []),
    ];
    lines.push(`  ${toolset.name.padEnd(toolsetWidth)} ${String(toolset.operations).padStart(4)}  ${parts.join(', ')}`);
  }
  lines.push('', `tools (${report.total.tools}):`);
  const rows = report.tools.map((tool) => [
    tool.name,
    tool.toolset ?? '-',
    tool.scopes.length === 0 ? '-' : tool.scopes.join(' | '),
    hints(tool),
    `~${tool.tokens}`,
  ]);
  const header = ['name', 'toolset', 'scopes', 'hints', 'tokens'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  for (const row of [header, ...rows]) {
    lines.push(
      `  ${row.map((cell, column) => (column === row.length - 1 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  ')}`,
    );
  }
  const kib = (report.total.bytes / 1024).toFixed(1);
  lines.push(
    '',
    `tools/list: ${report.total.tools} tools, ${kib} KiB, ~${report.total.tokens.toLocaleString('en-US')} tokens (${report.tokenCount})`,
  );
  lines.push('', report.warnings.length === 0 ? 'warnings: none' : `warnings (${report.warnings.length}):`);
  for (const warning of report.warnings) lines.push(`  - ${warning}`);
  return lines;
}

function hints(tool: {
  readonly readOnly: boolean;
  readonly destructive: boolean;
  readonly idempotent: boolean;
}): string {
  const words = [
    tool.readOnly ? 'read-only' : tool.destructive ? 'destructive' : 'write',
    ...(tool.idempotent ? ['idempotent'] : []),
  ];
  return words.join(', ');
}
