/** What one bench run measured; `report.ts` renders it. */
import type { AgentFigures } from './agent-session/figures.js';
import type { Machine } from './machine.js';
import type { Spread } from './stats.js';

export type ContenderId = 'school-mcp' | 'bare-sdk' | 'ivotoby' | 'generated' | 'direct';

/** A figure, or why there is none. */
export type Measured<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

export interface ColdStartCell extends Spread {
  readonly tools: number;
  /** Why a host's MCP client refuses the `tools/list` answer that was timed, when it does. */
  readonly listRejected?: string;
}

export interface ColdStartRow {
  readonly scenario: string;
  readonly cells: Readonly<Partial<Record<ContenderId, Measured<ColdStartCell>>>>;
}

export interface ContextCell {
  readonly tools: number;
  readonly bytes: number;
  readonly tokens: number | undefined;
  /** Tokens of the names, descriptions and input schemas alone: a model API's tool definition. */
  readonly modelTokens: number | undefined;
  /** How the peer was configured for the same capability. */
  readonly as: string;
}

export interface ContextRow {
  readonly configuration: string;
  readonly cells: Readonly<Partial<Record<ContenderId, Measured<ContextCell>>>>;
}

export interface LatencyCell {
  readonly p50: Spread;
  readonly p99: Spread;
  readonly calls: number;
}

export interface LatencyRow {
  readonly transport: 'stdio' | 'HTTP';
  readonly concurrency: number;
  readonly cells: Readonly<Partial<Record<ContenderId, Measured<LatencyCell>>>>;
}

export interface MemoryCell {
  readonly afterStart: number;
  readonly afterHalf: number;
  readonly afterAll: number;
  readonly calls: number;
  /** The same process after more calls, where measured: whether the resident set keeps growing. */
  readonly afterLong?: { readonly bytes: number; readonly calls: number };
}

export interface ScaleRow {
  readonly document: string;
  readonly result: Measured<{
    operations: number;
    parseMs: Spread;
    buildMs: Spread;
    compileMs: Spread;
    peakBytes: Spread;
    baselinePeakBytes: number;
  }>;
}

export interface HostileRow {
  readonly document: string;
  readonly operations: number;
  readonly documentBytes: number;
  readonly configuration: 'default' | '--toolsets all';
  readonly result: Measured<{ tools: number; listBytes: number; listMs: Spread; peakBytes: Spread }>;
}

export interface BenchResults {
  readonly machine: Machine;
  readonly startedAt: string;
  readonly durationS: number;
  readonly quick: boolean;
  readonly versions: Readonly<Record<string, string>>;
  readonly tokenizer: string | undefined;
  readonly readOperation: string;
  readonly coldStart: readonly ColdStartRow[];
  readonly context: readonly ContextRow[];
  readonly latency: readonly LatencyRow[];
  readonly memory: Readonly<Partial<Record<ContenderId, Measured<MemoryCell>>>>;
  readonly scale: readonly ScaleRow[];
  readonly hostile: readonly HostileRow[];
  /** The scripted agent session (`agent-session/`), measured after the rest. */
  readonly agent?: Measured<AgentFigures>;
  /** Why a peer could not be measured at all, when it could not. */
  readonly peerProblems: readonly string[];
  readonly notes: readonly string[];
}
