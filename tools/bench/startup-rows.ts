/**
 * The rows measured by starting servers: cold start (spawn → first `tools/list`, interleaved
 * runs) and context cost (the size of that first `tools/list` answer).
 */
import type { LaunchSpec, ToolList } from './mcp-process.js';
import { startMcpServer } from './mcp-process.js';
import { reasonOf } from './latency.js';
import type { ColdStartCell, ColdStartRow, ContenderId, ContextCell, Measured } from './results.js';
import { spreadOf } from './stats.js';
import type { TokenCounter } from './token-count.js';

export interface StartEntry {
  /** A key of its own: one contender can appear twice (cached and not cached). */
  readonly key: string;
  readonly launch: Measured<LaunchSpec>;
  /** Runs before each timed start, outside the timing (e.g. emptying a cache). */
  readonly before?: () => Promise<void>;
}

/** Starts every entry `runs` times, round-robin, after `warmup` untimed starts each. */
export async function timeColdStarts(
  entries: readonly StartEntry[],
  runs: number,
  warmup: number,
): Promise<Map<string, Measured<ColdStartCell>>> {
  const samples = new Map<string, number[]>();
  const tools = new Map<string, number>();
  const rejected = new Map<string, string>();
  const failed = new Map<string, string>();
  for (const entry of entries) if (!entry.launch.ok) failed.set(entry.key, entry.launch.reason);
  for (let run = -warmup; run < runs; run++) {
    for (const entry of entries) {
      if (failed.has(entry.key) || !entry.launch.ok) continue;
      try {
        await entry.before?.();
        const server = await startMcpServer(entry.launch.value);
        await server.close();
        if (run < 0) continue;
        samples.set(entry.key, [...(samples.get(entry.key) ?? []), server.coldStartMs]);
        tools.set(entry.key, server.firstList.tools.length);
        if (server.listRejected !== undefined) rejected.set(entry.key, server.listRejected);
      } catch (error) {
        failed.set(entry.key, reasonOf(error));
      }
    }
  }
  const results = new Map<string, Measured<ColdStartCell>>();
  for (const entry of entries) {
    const reason = failed.get(entry.key);
    const listRejected = rejected.get(entry.key);
    const cell: ColdStartCell = {
      ...spreadOf(samples.get(entry.key) ?? []),
      tools: tools.get(entry.key) ?? 0,
      ...(listRejected === undefined ? {} : { listRejected }),
    };
    results.set(entry.key, reason !== undefined ? { ok: false, reason } : { ok: true, value: cell });
  }
  return results;
}

export function coldStartRow(
  scenario: string,
  measured: Map<string, Measured<ColdStartCell>>,
  keys: Readonly<Partial<Record<ContenderId, string>>>,
): ColdStartRow {
  const cells: Partial<Record<ContenderId, Measured<ColdStartCell>>> = {};
  for (const [id, key] of Object.entries(keys) as [ContenderId, string][]) {
    const cell = measured.get(key);
    if (cell) cells[id] = cell;
  }
  return { scenario, cells };
}

/**
 * One `tools/list` answer as a host receives it: its JSON text in bytes and in tokens, and the
 * tokens of the part a model API's tool definition holds (each tool's name, description and input
 * schema), which is what a host that passes only that part spends.
 */
export function contextCell(list: ToolList, as: string, countTokens: TokenCounter | undefined): ContextCell {
  const text = JSON.stringify(list);
  const modelPart = JSON.stringify(
    list.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  );
  return {
    tools: list.tools.length,
    bytes: Buffer.byteLength(text),
    tokens: countTokens?.(text),
    modelTokens: countTokens?.(modelPart),
    as,
  };
}

/** The first `tools/list` of a server started once, as its host gets it, or why it could not start. */
export async function listOnce(launch: Measured<LaunchSpec>): Promise<Measured<ToolList>> {
  if (!launch.ok) return launch;
  try {
    const server = await startMcpServer(launch.value);
    await server.close();
    return { ok: true, value: server.hostList };
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  }
}
