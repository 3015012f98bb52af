/**
 * The agent of the scripted session. It knows the tasks, not the tools: for each step it takes a
 * listed tool whose name is made of the step's words, or else asks `search_operations`, and calls
 * what it found through the call tool that fits (a read through a read-only one when the server
 * lists one). It describes an operation only when the search answer does not show the arguments
 * it wants to send. Every call is counted, with the tokens of its result.
 */
import { administratorWords, nameWords } from './words.js';
import type { AgentTask, Answer, Memory } from './tasks.js';

const SEARCH_TOOL = 'search_operations';
const DESCRIBE_TOOL = 'describe_operation';

export interface ListedTool {
  readonly name: string;
  readonly annotations?: { readonly readOnlyHint?: boolean } | undefined;
}

export interface ToolResult {
  readonly content?: readonly { readonly type: string; readonly text?: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

export type CallTool = (name: string, args: Record<string, unknown>) => Promise<ToolResult>;

interface CallRecord {
  readonly task: string;
  readonly tool: string;
  /** The operation run, when the tool is a call tool. */
  readonly operation: string | undefined;
  readonly discovery: boolean;
  readonly resultTokens: number;
}

interface TaskRecord {
  readonly title: string;
  /** Whether any discovery tool (search, describe, a call tool) was needed. */
  readonly usedDiscovery: boolean;
  readonly errors: readonly string[];
}

export interface SessionRecord {
  readonly calls: readonly CallRecord[];
  readonly tasks: readonly TaskRecord[];
}

/** What a search answer tells of one operation. */
interface FoundOperation {
  readonly name: string;
  readonly readOnly: boolean;
  /** The argument names the answer shows, when it shows them. */
  readonly arguments: readonly string[] | undefined;
}

export async function runTasks(tools: readonly ListedTool[], tasks: readonly AgentTask[], callTool: CallTool, countTokens: (text: string) => number): Promise<SessionRecord> {
  const calls: CallRecord[] = [];
  const records: TaskRecord[] = [];
  const listed = tools.filter((tool) => !isDiscoveryTool(tool.name));
  const readCaller = tools.find((tool) => isCallTool(tool.name) && tool.annotations?.readOnlyHint === true)?.name;
  const writeCaller = tools.find((tool) => isCallTool(tool.name) && tool.annotations?.readOnlyHint !== true)?.name;
  const found = new Map<string, FoundOperation>();
  const described = new Set<string>();

  for (const task of tasks) {
    const memory: Memory = {};
    const errors: string[] = [];
    let usedDiscovery = false;
    const call = async (tool: string, args: Record<string, unknown>, operation?: string): Promise<ToolResult> => {
      const result = await callTool(tool, args);
      const discovery = isDiscoveryTool(tool);
      usedDiscovery ||= discovery;
      calls.push({ task: task.title, tool, operation, discovery, resultTokens: countTokens(JSON.stringify(result)) });
      if (result.isError) errors.push(`${operation ?? tool}: ${textOf(result).slice(0, 300)}`);
      return result;
    };

    for (const step of task.steps) {
      const args = step.args(memory);
      const direct = bestByName(listed.map((tool) => tool.name), step.want);
      let result: ToolResult;
      if (direct !== undefined) {
        result = await call(direct, args);
      } else {
        const operation = bestFound(found, step.want) ?? (await search(step.want));
        if (operation === undefined) {
          errors.push(`nothing found for "${step.want}"`);
          break;
        }
        const shown = operation.arguments;
        if ((shown === undefined || Object.keys(args).some((name) => !shown.includes(name))) && !described.has(operation.name)) {
          await call(DESCRIBE_TOOL, { name: operation.name });
          described.add(operation.name);
        }
        const caller = operation.readOnly && readCaller !== undefined ? readCaller : writeCaller;
        if (caller === undefined) {
          errors.push(`no tool to call ${operation.name} with`);
          break;
        }
        result = await call(caller, { name: operation.name, arguments: args }, operation.name);
      }
      if (result.isError) break;
      step.keep?.(answerOf(result), memory);
    }
    records.push({ title: task.title, usedDiscovery, errors });

    async function search(want: string): Promise<FoundOperation | undefined> {
      const answer = answerOf(await call(SEARCH_TOOL, { query: want }));
      const results = Array.isArray(answer['results']) ? (answer['results'] as Answer[]) : [];
      for (const entry of results) {
        const name = String(entry['name']);
        const shown = entry['arguments'];
        found.set(name, { name, readOnly: entry['readOnly'] === true, arguments: Array.isArray(shown) ? shown.map((line) => argumentName(String(line))) : undefined });
      }
      const first = results[0];
      return bestFound(found, want, results.map((entry) => String(entry['name']))) ?? (first === undefined ? undefined : found.get(String(first['name'])));
    }
  }
  return { calls, tasks: records };
}

/** The listed name made of the most of `want`'s words, and of none that `want` lacks. */
export function bestByName(names: readonly string[], want: string): string | undefined {
  const wanted = new Set(administratorWords(want));
  let best: string | undefined;
  let bestSize = 0;
  for (const name of names) {
    const words = nameWords(name);
    if (words.length > bestSize && words.every((word) => wanted.has(word))) {
      best = name;
      bestSize = words.length;
    }
  }
  return best;
}

function bestFound(found: ReadonlyMap<string, FoundOperation>, want: string, among: readonly string[] = [...found.keys()]): FoundOperation | undefined {
  const name = bestByName(among, want);
  return name === undefined ? undefined : found.get(name);
}

/** `"title*: string"` or `"title"` → `title`. */
function argumentName(line: string): string {
  return /^[A-Za-z0-9_.-]+/.exec(line)?.[0] ?? line;
}

function isCallTool(name: string): boolean {
  return /^call_/.test(name);
}

function isDiscoveryTool(name: string): boolean {
  return name === SEARCH_TOOL || name === DESCRIBE_TOOL || isCallTool(name);
}

function textOf(result: ToolResult): string {
  return (result.content ?? []).map((block) => block.text ?? '').join('\n');
}

/** The structured result, or the first text block's JSON. */
function answerOf(result: ToolResult): Answer {
  if (result.structuredContent !== undefined) return result.structuredContent;
  try {
    const parsed: unknown = JSON.parse(result.content?.[0]?.text ?? '');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Answer) : {};
  } catch {
    return {};
  }
}
