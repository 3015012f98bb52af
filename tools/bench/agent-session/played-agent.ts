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
  readonly title?: string | undefined;
  readonly annotations?: { readonly readOnlyHint?: boolean } | undefined;
  readonly inputSchema?:
    | { readonly properties?: Record<string, unknown>; readonly required?: readonly string[] }
    | undefined;
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
  /** Its title, as the list or the search answer shows it. */
  readonly title: string;
  readonly readOnly: boolean;
  /** A tool of its own in the list, which the agent then calls directly. */
  readonly listed: boolean;
  /** The argument names the answer shows, when it shows them. */
  readonly arguments: readonly string[] | undefined;
  /** Those of them marked required (`*`). */
  readonly required: readonly string[];
}

export async function runTasks(
  tools: readonly ListedTool[],
  tasks: readonly AgentTask[],
  callTool: CallTool,
  countTokens: (text: string) => number,
  instructions = '',
): Promise<SessionRecord> {
  const calls: CallRecord[] = [];
  const records: TaskRecord[] = [];
  const listed = tools.filter((tool) => !isDiscoveryTool(tool.name));
  const readCaller = tools.find((tool) => isCallTool(tool.name) && tool.annotations?.readOnlyHint === true)?.name;
  const writeCaller = tools.find((tool) => isCallTool(tool.name) && tool.annotations?.readOnlyHint !== true)?.name;
  const found = new Map<string, FoundOperation>();
  const described = new Set<string>();
  // The operations the server's instructions name with their arguments, seen before any call.
  const indexed = indexedOperations(instructions);

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
      const listedNames = new Set(listed.map((tool) => tool.name));
      const known = [
        ...listed.map(asKnown),
        ...[...found.values()].filter((operation) => !listedNames.has(operation.name)),
        ...indexed.filter((operation) => !listedNames.has(operation.name) && !found.has(operation.name)),
      ];
      const fit = fitOf(known, step.want, args);
      const direct = bestByName([...listedNames], step.want) ?? (fit?.listed === true ? fit.name : undefined);
      let result: ToolResult;
      if (direct !== undefined) {
        result = await call(direct, args);
      } else {
        const seen = bestFound(found, step.want) ?? fit;
        const operation = seen ?? (await search(step.want));
        if (operation === undefined) {
          errors.push(`nothing found for "${step.want}"`);
          break;
        }
        result = await runFound(operation, args);
        // It checks that an operation it chose without searching answered what the step wanted
        // (the chapters, not the course they belong to); if not, it searches after all.
        if (seen !== undefined && !result.isError && lacksWanted(step, answerOf(result))) {
          const other = await search(step.want, seen.name);
          if (other !== undefined) result = await runFound(other, args);
        }
      }
      if (result.isError) break;
      step.keep?.(answerOf(result), memory);
    }
    records.push({ title: task.title, usedDiscovery, errors });

    async function runFound(operation: FoundOperation, args: Record<string, unknown>): Promise<ToolResult> {
      if (listed.some((tool) => tool.name === operation.name)) return call(operation.name, args);
      const shown = operation.arguments;
      if (
        (shown === undefined || Object.keys(args).some((name) => !shown.includes(name))) &&
        !described.has(operation.name)
      ) {
        await call(DESCRIBE_TOOL, { name: operation.name });
        described.add(operation.name);
      }
      const caller = operation.readOnly && readCaller !== undefined ? readCaller : writeCaller;
      if (caller === undefined) {
        errors.push(`no tool to call ${operation.name} with`);
        return { isError: true };
      }
      return call(caller, { name: operation.name, arguments: args }, operation.name);
    }

    /** The search's best answer for `want`, other than `tried` (an operation that did not answer it). */
    async function search(want: string, tried?: string): Promise<FoundOperation | undefined> {
      const answer = answerOf(await call(SEARCH_TOOL, { query: want }));
      const results = Array.isArray(answer['results']) ? (answer['results'] as Answer[]) : [];
      // The answer's other operations of the same thing are remembered too, for the next steps.
      const beside = Array.isArray(answer['sameToolset']) ? (answer['sameToolset'] as Answer[]) : [];
      for (const entry of [...results, ...beside]) {
        const name = String(entry['name']);
        const shown = Array.isArray(entry['arguments']) ? entry['arguments'].map(String) : undefined;
        found.set(name, {
          name,
          title: typeof entry['title'] === 'string' ? entry['title'] : '',
          readOnly: entry['readOnly'] === true,
          listed: entry['listed'] === true,
          arguments: shown?.map(argumentName),
          required: (shown ?? []).filter((line) => /^[A-Za-z0-9_.-]+\*/.test(line)).map(argumentName),
        });
      }
      const names = results.map((entry) => String(entry['name'])).filter((name) => name !== tried);
      const first = names[0];
      return bestFound(found, want, names) ?? (first === undefined ? undefined : found.get(first));
    }
  }
  return { calls, tasks: records };
}

/** The answer lacks what the step keeps for the next ones (an id it looked for). */
function lacksWanted(step: AgentTask['steps'][number], answer: Answer): boolean {
  if (step.keep === undefined) return false;
  const kept: Memory = {};
  step.keep(answer, kept);
  return Object.values(kept).some((value) => value === undefined);
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

function bestFound(
  found: ReadonlyMap<string, FoundOperation>,
  want: string,
  among: readonly string[] = [...found.keys()],
): FoundOperation | undefined {
  const name = bestByName(among, want);
  return name === undefined ? undefined : found.get(name);
}

/** A listed tool as the agent knows it from the list: its name, annotations and input schema. */
function asKnown(tool: ListedTool): FoundOperation {
  const properties = Object.keys(tool.inputSchema?.properties ?? {});
  return {
    name: tool.name,
    title: tool.title ?? '',
    readOnly: tool.annotations?.readOnlyHint === true,
    listed: true,
    arguments: properties,
    required: [...(tool.inputSchema?.required ?? [])],
  };
}

/**
 * What a careful agent does before searching again: it looks at the tools and search results it
 * has already seen for the one that reads or changes as the step does (by the step's first
 * word), takes exactly what it wants to send (every argument it has, and it has every required
 * one) and is named after a thing the step names (a word of its name other than a verb). When
 * several do, it takes the one whose name and title share the most words with the step, if one
 * shares more than the others; else it searches.
 */
function fitOf(
  candidates: readonly FoundOperation[],
  want: string,
  args: Record<string, unknown>,
): FoundOperation | undefined {
  const wanted = new Set(administratorWords(want));
  const sent = Object.keys(args);
  const changes = CHANGE_VERBS.has(administratorWords(want)[0] ?? '');
  const fitting = candidates.filter(
    (candidate) =>
      candidate.readOnly !== changes &&
      candidate.arguments !== undefined &&
      sent.every((name) => candidate.arguments!.includes(name)) &&
      candidate.required.every((name) => sent.includes(name)) &&
      // About a thing the step names, or about the very item the step holds the id of.
      (nameWords(candidate.name).some((word) => !VERB_WORDS.has(word) && wanted.has(word)) || ownIdSent(candidate)),
  );
  if (fitting.length <= 1) return fitting[0];
  // Several fit: the one whose name and title share the most words with the step, when one does.
  const shared = (candidate: FoundOperation) =>
    new Set(
      [...nameWords(candidate.name), ...administratorWords(candidate.title)].filter(
        (word) => !VERB_WORDS.has(word) && wanted.has(word),
      ),
    ).size;
  const ranked = [...fitting].sort((a, b) => shared(b) - shared(a));
  return shared(ranked[0]!) > shared(ranked[1]!) ? ranked[0] : undefined;
}

/** `update_lecturer` taking `lecturer_id`: the operation is about the item whose id the step holds. */
function ownIdSent(candidate: FoundOperation): boolean {
  const words = nameWords(candidate.name);
  return candidate.required.some(
    (name) => name.endsWith('_id') && words.includes(administratorWords(name.slice(0, -3))[0] ?? ''),
  );
}

/** A step that starts with one of these changes something; any other step reads. */
const CHANGE_VERBS = new Set([
  'create',
  'add',
  'update',
  'change',
  'set',
  'rename',
  'turn',
  'reschedule',
  'upload',
  'put',
  'include',
  'restore',
  'cancel',
  'delete',
  'remove',
  'attach',
  'deploy',
  'publish',
  'make',
  'write',
  'tag',
  'enrol',
  'enroll',
]);

/** Words of a name that say what is done, not to what. */
const VERB_WORDS = new Set([
  'list',
  'get',
  'create',
  'update',
  'delete',
  'add',
  'remove',
  'find',
  'set',
  'change',
  'write',
  'read',
  'who',
  'or',
  'one',
  'its',
  'their',
  'it',
]);

/**
 * The index lines of the server's instructions (`Reads, run with call_read_operation: get_member(member_id*,
 * fields); ...`) as the operations they name: the argument names, `*` required, and whether it reads.
 */
function indexedOperations(instructions: string): FoundOperation[] {
  const operations: FoundOperation[] = [];
  for (const line of instructions.split('\n')) {
    const head = /^(Reads|Changes), run with call_\w+: /.exec(line);
    if (head === null) continue;
    for (const entry of line.slice(head[0].length).split('; ')) {
      const parts = /^([A-Za-z0-9_-]+)\(([^)]*)\)$/.exec(entry);
      if (parts === null) continue;
      const shown = parts[2]!.split(', ').filter((item) => item !== '' && item !== '…');
      operations.push({
        name: parts[1]!,
        title: '',
        readOnly: head[1] === 'Reads',
        listed: false,
        // Cut short (`…`): the agent does not know every argument, as with a search line without them.
        arguments: parts[2]!.includes('…') ? undefined : shown.map(argumentName),
        required: shown.filter((item) => item.endsWith('*')).map(argumentName),
      });
    }
  }
  return operations;
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
