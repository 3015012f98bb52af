/** The figures of an agent session, as BENCHMARKS.md shows them and the test checks them. Pure. */
import { ALL_SCOPES } from '@school-mcp/sandbox';
import type { RecallFigures } from './search-recall.js';
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
  /** The server's instructions; absent from figures measured before they were counted. */
  readonly instructionsTokens?: number;
  /**
   * Consents that asked for a new write scope, and of them those that asked for its group's read
   * too (where the school has one: `storage` has no read).
   */
  readonly writeConsents: number;
  readonly writeConsentsWithRead: number;
  readonly toolErrors: readonly string[];
  /** The twelve tasks the default list was not chosen for, in a session of their own. */
  readonly unseen?: UnseenFigures;
  /** Search recall at 3 on the phrasings, each half (`search-recall.ts`). */
  readonly searchRecall?: { readonly tuning: RecallFigures; readonly heldBack: RecallFigures };
}

export interface UnseenFigures {
  readonly tasks: number;
  readonly tasksWithListedTools: number;
  readonly prompts: number;
  readonly calls: number;
  readonly discoveryCalls: number;
  /** Tool errors, and steps for which the agent found no operation. */
  readonly toolErrors: readonly string[];
  /** Tasks done without an error. */
  readonly tasksDone: number;
}

export function agentFigures(result: AgentSessionResult, countTokens: (text: string) => number): AgentFigures {
  const { calls, tasks } = result.first.record;
  const largest = calls.reduce(
    (best, call) => (call.resultTokens > best.resultTokens ? call : best),
    calls[0] ?? { resultTokens: 0, tool: '–', operation: undefined },
  );
  const writes = result.first.prompts
    .map((prompt, index) => newWrites(prompt, result.first.prompts[index - 1]))
    .filter((asked) => asked.writes.length > 0);
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
    instructionsTokens: countTokens(result.instructions),
    writeConsents: writes.length,
    writeConsentsWithRead: writes.filter(({ writes: added, scopes }) =>
      added.every(
        (scope) => !(ALL_SCOPES as readonly string[]).includes(readOf(scope)) || scopes.includes(readOf(scope)),
      ),
    ).length,
    toolErrors: [...result.first.record.tasks, ...result.second.record.tasks].flatMap((task) =>
      task.errors.map((error) => `${task.title}: ${error}`),
    ),
    unseen: unseenFigures(result.unseen),
  };
}

function unseenFigures(run: AgentSessionResult['unseen']): UnseenFigures {
  const { calls, tasks } = run.record;
  return {
    tasks: tasks.length,
    tasksWithListedTools: tasks.filter((task) => !task.usedDiscovery && task.errors.length === 0).length,
    prompts: run.prompts.length,
    calls: calls.length,
    discoveryCalls: calls.filter((call) => call.discovery && call.operation === undefined).length,
    toolErrors: tasks.flatMap((task) => task.errors.map((error) => `${task.title}: ${error}`)),
    tasksDone: tasks.filter((task) => task.errors.length === 0).length,
  };
}

/** The write scopes a consent asked for that the one before it had not. */
function newWrites(
  prompt: ConsentPrompt,
  previous: ConsentPrompt | undefined,
): { writes: string[]; scopes: readonly string[] } {
  const before = new Set(previous?.scopes ?? []);
  return {
    writes: prompt.scopes.filter((scope) => scope.endsWith(':write') && !before.has(scope)),
    scopes: prompt.scopes,
  };
}

function readOf(write: string): string {
  return write.replace(/:write$/, ':read');
}
