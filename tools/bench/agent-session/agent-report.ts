/**
 * The "Agent session" section of BENCHMARKS.md: the figures of the scripted session before the
 * agent-experience work (measured once, on the commit named below) and now, against its aims. Pure.
 */
import type { Measured } from '../results.js';
import type { AgentFigures } from './figures.js';

export const AGENT_HEADING = '## Agent session';

/** The commit the "before" column was measured on: main when the work began. */
const BEFORE_COMMIT = '4f30268939aaee639f5b6d3c21b3716a50647547';

/**
 * Measured once with `npm run bench -- --only agent --agent-server DIR/dist/bin/school-mcp.js`, DIR
 * being a build of `BEFORE_COMMIT`, with the tasks and the played agent of this commit.
 */
const BEFORE: AgentFigures = {
  tasks: 15,
  tasksWithListedTools: 5,
  prompts: 17,
  secondSessionPrompts: 0,
  calls: 71,
  discoveryCalls: 31,
  resultTokens: 28_922,
  largestResultTokens: 2_785,
  largestResultOf: 'call_operation → list_form_submissions',
  listTools: 29,
  listTokens: 10_839,
  writeConsents: 12,
  writeConsentsWithRead: 12,
  toolErrors: [],
};

/** The agent-experience aims. */
export const AGENT_AIMS = { prompts: 12, secondSessionPrompts: 0, calls: 60, discoveryCalls: 10, tasksWithListedTools: 10, largestResultTokens: 4_000, listTokens: 6_000 } as const;

export function agentSection(after: Measured<AgentFigures>, separately?: string): string[] {
  const lines = [
    AGENT_HEADING,
    '',
    'The administrator\'s 15 most frequent tasks (school health, enrolment, stuck students, coupon, course draft, course update, failed subscriptions, membership plan, webinar, blog post, lecturer, appearance and page deploy, comments, form export, who am I), played by `tools/bench/agent-session/`: the sandbox school and school-mcp run as real processes, school-mcp with its default flags (and `--no-browser`: the bench\'s host shows each consent link through URL elicitation, and the bench plays the user who clicks Allow). The played agent knows the tasks, not the tools: it takes a listed tool whose name is made of the step\'s words, or else asks `search_operations`, and describes an operation only when the search answer does not show the arguments it wants to send. A second session then starts school-mcp again on the same token store and does the same work. Result tokens are each `tools/call` result\'s JSON (text and structured content), counted with the bench\'s tokenizer.',
    '',
    ...(separately === undefined ? [] : [separately, '']),
  ];
  if (!after.ok) return [...lines, `Not measured in this run: ${after.reason}`];
  const now = after.value;
  const row = (label: string, before: string, current: string, aim: string) => lines.push(`| ${label} | ${before} | ${current} | ${aim} |`);
  const atMost = (value: number, limit: number) => `at most ${count(limit)}: ${verdict(value <= limit)}`;
  lines.push(`| | before (${BEFORE_COMMIT.slice(0, 7)}) | now | aim |`, '|---|---:|---:|---|');
  row('consent prompts, first session', count(BEFORE.prompts), count(now.prompts), atMost(now.prompts, AGENT_AIMS.prompts));
  row('consent prompts, second session (same token store)', count(BEFORE.secondSessionPrompts), count(now.secondSessionPrompts), atMost(now.secondSessionPrompts, AGENT_AIMS.secondSessionPrompts));
  row('consents for a new write that also asked for its group\'s read', `${BEFORE.writeConsentsWithRead} of ${BEFORE.writeConsents}`, `${now.writeConsentsWithRead} of ${now.writeConsents}`, `all: ${verdict(now.writeConsentsWithRead === now.writeConsents)}`);
  row('calls', count(BEFORE.calls), count(now.calls), atMost(now.calls, AGENT_AIMS.calls));
  row('discovery calls (search, describe)', count(BEFORE.discoveryCalls), count(now.discoveryCalls), atMost(now.discoveryCalls, AGENT_AIMS.discoveryCalls));
  row('tasks done with listed tools only (no discovery tool)', `${BEFORE.tasksWithListedTools} of ${BEFORE.tasks}`, `${now.tasksWithListedTools} of ${now.tasks}`, `at least ${AGENT_AIMS.tasksWithListedTools}: ${verdict(now.tasksWithListedTools >= AGENT_AIMS.tasksWithListedTools)}`);
  row('result tokens, total', count(BEFORE.resultTokens), count(now.resultTokens), '');
  row('largest result, tokens', `${count(BEFORE.largestResultTokens)} (${BEFORE.largestResultOf})`, `${count(now.largestResultTokens)} (${now.largestResultOf})`, atMost(now.largestResultTokens, AGENT_AIMS.largestResultTokens));
  row('default `tools/list`, tokens (tools)', `${count(BEFORE.listTokens)} (${BEFORE.listTools})`, `${count(now.listTokens)} (${now.listTools})`, atMost(now.listTokens, AGENT_AIMS.listTokens));
  row('tool errors, both sessions', count(BEFORE.toolErrors.length), count(now.toolErrors.length), `none: ${verdict(now.toolErrors.length === 0)}`);
  if (now.toolErrors.length > 0) lines.push('', ...now.toolErrors.map((error) => `- ${error.replace(/\n/g, ' ').slice(0, 300)}`));
  lines.push('', ...explanations(now));
  return lines;
}

/** Why the figures are what they are, and why an aim is not met where it is not. */
function explanations(now: AgentFigures): string[] {
  const lines = [
    '- **The default list** is the operations that 11 of the 15 tasks need (`DEFAULT_TOOLS` in `src/server/tool-plan.ts`), listed compactly: every output schema is left out of the default list, since a host gains nothing from it there (the server still checks each `structuredContent` against it, `describe_operation` shows it, and hosts hand a model only the name, description and input schema); input schemas leave out the checks the server runs anyway before anything is sent (`pattern`, lengths, bounds), naming the field when one fails; annotations leave out values equal to MCP\'s defaults. `--toolsets ...` lists every tool in full, output schemas included. Course drafting, webinars, lecturers and pages go through discovery: listing them too would take the list over 6,000 tokens.',
    '- **Discovery**: `search_operations` shows each result\'s arguments in one line (`"kind*: video|text|quiz|file"`), so the agent calls without describing first; reads run through `call_read_operation` (`readOnlyHint`), changes through `call_operation` (`destructiveHint`).',
  ];
  if (now.prompts > AGENT_AIMS.prompts) {
    lines.push(
      `- **Prompts: ${now.prompts}, not ${AGENT_AIMS.prompts}.** The first sign-in asks for every read of the listed toolsets at once; each later prompt is the first need of a write group, with its read (${now.writeConsents} write groups: the tasks change members, enrolments, coupons, courses, curricula, files, plans, events, posts, lecturers, the appearance and pages). ${now.writeConsents} + 1 is the floor for a policy that asks for a write only when a call needs it (least privilege for writes, AZ-06); reaching ${AGENT_AIMS.prompts} would mean asking for some write before any call needs it.`,
    );
  }
  return lines;
}

function verdict(met: boolean): string {
  return met ? '**met**' : '**not met**';
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
