/** The figures of an agent session, as BENCHMARKS.md shows them and the test checks them. Pure. */
import { ALL_SCOPES } from '@school-mcp/sandbox';
import type { AgentSessionResult, ConsentPrompt } from './session.js';

export interface AgentFigures {
  readonly tasks: number;
  readonly tasksWithListedTools: number;
  readonly prompts: number;
  readonly secondSessionPrompts: number;
  readonly calls: number;
  readonly discoveryCalls: number;
  readonly resultTokens: number;
  readonly largestResultTokens: number;
  /** The tool (and operation) of the largest result. */
  readonly largestResultOf: string;
  readonly listTools: number;
  readonly listTokens: number;
  /**
   * Consents that asked for a new write scope, and of them those that asked for its group's read
   * too (where the school has one: `storage` has no read).
   */
  readonly writeConsents: number;
  readonly writeConsentsWithRead: number;
  readonly toolErrors: readonly string[];
}

export function agentFigures(result: AgentSessionResult, countTokens: (text: string) => number): AgentFigures {
  const { calls, tasks } = result.first.record;
  const largest = calls.reduce((best, call) => (call.resultTokens > best.resultTokens ? call : best), calls[0] ?? { resultTokens: 0, tool: '–', operation: undefined });
  const writes = result.first.prompts.map((prompt, index) => newWrites(prompt, result.first.prompts[index - 1])).filter((asked) => asked.writes.length > 0);
  return {
    tasks: tasks.length,
    tasksWithListedTools: tasks.filter((task) => !task.usedDiscovery && task.errors.length === 0).length,
    prompts: result.first.prompts.length,
    secondSessionPrompts: result.second.prompts.length,
    calls: calls.length,
    discoveryCalls: calls.filter((call) => call.discovery && call.operation === undefined).length,
    resultTokens: calls.reduce((sum, call) => sum + call.resultTokens, 0),
    largestResultTokens: largest.resultTokens,
    largestResultOf: largest.operation === undefined ? largest.tool : `${largest.tool} → ${largest.operation}`,
    listTools: result.list.tools.length,
    listTokens: countTokens(JSON.stringify(result.list)),
    writeConsents: writes.length,
    writeConsentsWithRead: writes.filter(({ writes: added, scopes }) => added.every((scope) => !(ALL_SCOPES as readonly string[]).includes(readOf(scope)) || scopes.includes(readOf(scope)))).length,
    toolErrors: [...result.first.record.tasks, ...result.second.record.tasks].flatMap((task) => task.errors.map((error) => `${task.title}: ${error}`)),
  };
}

/** The write scopes a consent asked for that the one before it had not. */
function newWrites(prompt: ConsentPrompt, previous: ConsentPrompt | undefined): { writes: string[]; scopes: readonly string[] } {
  const before = new Set(previous?.scopes ?? []);
  return { writes: prompt.scopes.filter((scope) => scope.endsWith(':write') && !before.has(scope)), scopes: prompt.scopes };
}

function readOf(write: string): string {
  return write.replace(/:write$/, ':read');
}
