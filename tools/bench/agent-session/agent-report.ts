/**
 * The "Agent session" section of BENCHMARKS.md: the figures of the scripted session before the
 * agent-experience work (measured once, on the commit named below) and now, against its aims. Pure.
 */
import type { Measured } from '../results.js';
import type { AgentFigures, UnseenFigures } from './figures.js';

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

/** The commit the twelve tasks' "before" column was measured on: main when the search work began. */
const UNSEEN_BEFORE_COMMIT = '4bd7b4d';

/**
 * The twelve tasks (`unseen-tasks.ts`) with the same played agent against a build of
 * `UNSEEN_BEFORE_COMMIT` (`npm run bench -- --only agent --agent-server DIR/dist/bin/school-mcp.js`).
 * Ten tasks stopped there: eight at a step for which the search found nothing, two at a wrong
 * operation that the search put first.
 */
const UNSEEN_BEFORE: UnseenFigures = {
  tasks: 12,
  tasksWithListedTools: 0,
  prompts: 4,
  calls: 30,
  discoveryCalls: 17,
  toolErrors: new Array<string>(10).fill(''),
  tasksDone: 2,
};

/** The commit before the operation index in the instructions (`src/server/operation-index.ts`). */
const BEFORE_INDEX_COMMIT = 'b9f1d1f';

/**
 * Both task sets against a build of `BEFORE_INDEX_COMMIT`, with this commit's played agent (which
 * reads the instructions; there were no operations in them then). Its instructions: 238 tokens.
 */
const BEFORE_INDEX = {
  fifteen: { calls: 46, discoveryCalls: 6 },
  twelve: { calls: 48, discoveryCalls: 16 },
  instructionsTokens: 238,
} as const;

/** Search recall at 3 before the search work, measured on `UNSEEN_BEFORE_COMMIT`'s search. */
const RECALL_BEFORE = { tuning: { found: 8, total: 90 }, heldBack: { found: 9, total: 90 } } as const;

/** The aims for the twelve tasks and for the search. */
const UNSEEN_AIMS = { discoveryShare: 0.2, heldBackRecall: 0.95 } as const;

/** The agent-experience aims. */
export const AGENT_AIMS = {
  prompts: 12,
  secondSessionPrompts: 0,
  calls: 60,
  discoveryCalls: 10,
  tasksWithListedTools: 10,
  largestResultTokens: 4_000,
  listTokens: 6_000,
} as const;

export function agentSection(after: Measured<AgentFigures>, separately?: string): string[] {
  const lines = [
    AGENT_HEADING,
    '',
    "The administrator's 15 most frequent tasks (school health, enrolment, stuck students, coupon, course draft, course update, failed subscriptions, membership plan, webinar, blog post, lecturer, appearance and page deploy, comments, form export, who am I), played by `tools/bench/agent-session/`: the sandbox school and school-mcp run as real processes, school-mcp with its default flags (and `--no-browser`: the bench's host shows each consent link through URL elicitation, and the bench plays the user who clicks Allow). The played agent knows the tasks, not the tools: it takes a listed tool whose name is made of the step's words, or the one operation among those it has seen that fits the step (below), or else asks `search_operations`, and describes an operation only when the search answer does not show the arguments it wants to send. A second session then starts school-mcp again on the same token store and does the same work. Result tokens are each `tools/call` result's JSON (text and structured content), counted with the bench's tokenizer.",
    '',
    ...(separately === undefined ? [] : [separately, '']),
  ];
  if (!after.ok) return [...lines, `Not measured in this run: ${after.reason}`];
  const now = after.value;
  const row = (label: string, before: string, current: string, aim: string) =>
    lines.push(`| ${label} | ${before} | ${current} | ${aim} |`);
  const atMost = (value: number, limit: number) => `at most ${count(limit)}: ${verdict(value <= limit)}`;
  lines.push(`| | before (${BEFORE_COMMIT.slice(0, 7)}) | now | aim |`, '|---|---:|---:|---|');
  row(
    'consent prompts, first session',
    count(BEFORE.prompts),
    count(now.prompts),
    atMost(now.prompts, AGENT_AIMS.prompts),
  );
  row(
    'consent prompts, second session (same token store)',
    count(BEFORE.secondSessionPrompts),
    count(now.secondSessionPrompts),
    atMost(now.secondSessionPrompts, AGENT_AIMS.secondSessionPrompts),
  );
  row(
    "consents for a new write that also asked for its group's read",
    `${BEFORE.writeConsentsWithRead} of ${BEFORE.writeConsents}`,
    `${now.writeConsentsWithRead} of ${now.writeConsents}`,
    `all: ${verdict(now.writeConsentsWithRead === now.writeConsents)}`,
  );
  row('calls', count(BEFORE.calls), count(now.calls), atMost(now.calls, AGENT_AIMS.calls));
  row(
    'discovery calls (search, describe)',
    count(BEFORE.discoveryCalls),
    count(now.discoveryCalls),
    atMost(now.discoveryCalls, AGENT_AIMS.discoveryCalls),
  );
  row(
    'tasks done with listed tools only (no discovery tool)',
    `${BEFORE.tasksWithListedTools} of ${BEFORE.tasks}`,
    `${now.tasksWithListedTools} of ${now.tasks}`,
    `at least ${AGENT_AIMS.tasksWithListedTools}: ${verdict(now.tasksWithListedTools >= AGENT_AIMS.tasksWithListedTools)}`,
  );
  row('result tokens, total', count(BEFORE.resultTokens), count(now.resultTokens), '');
  row(
    'largest result, tokens',
    `${count(BEFORE.largestResultTokens)} (${BEFORE.largestResultOf})`,
    `${count(now.largestResultTokens)} (${now.largestResultOf})`,
    atMost(now.largestResultTokens, AGENT_AIMS.largestResultTokens),
  );
  row(
    'default `tools/list`, tokens (tools)',
    `${count(BEFORE.listTokens)} (${BEFORE.listTools})`,
    `${count(now.listTokens)} (${now.listTools})`,
    atMost(now.listTokens, AGENT_AIMS.listTokens),
  );
  row(
    'server instructions, tokens',
    BEFORE.instructionsTokens === undefined ? '–' : count(BEFORE.instructionsTokens),
    now.instructionsTokens === undefined ? '–' : count(now.instructionsTokens),
    '',
  );
  row(
    'tool errors, both sessions',
    count(BEFORE.toolErrors.length),
    count(now.toolErrors.length),
    `none: ${verdict(now.toolErrors.length === 0)}`,
  );
  if (now.toolErrors.length > 0)
    lines.push('', ...now.toolErrors.map((error) => `- ${error.replace(/\n/g, ' ').slice(0, 300)}`));
  lines.push('', ...explanations(now));
  if (now.unseen !== undefined) lines.push('', ...unseenSection(now, now.unseen));
  if (now.searchRecall !== undefined) lines.push('', ...recallSection(now.searchRecall));
  return lines;
}

/** The twelve tasks the default list was not chosen for, beside the fifteen it was. */
function unseenSection(now: AgentFigures, unseen: UnseenFigures): string[] {
  const share = (figures: { calls: number; discoveryCalls: number }) =>
    `${count(figures.discoveryCalls)} (${percent(figures.discoveryCalls / Math.max(1, figures.calls))})`;
  const unseenShare = unseen.discoveryCalls / Math.max(1, unseen.calls);
  return [
    '### Twelve tasks the default list was not chosen for',
    '',
    'Written before they were first run and without looking at the tools (`tools/bench/agent-session/unseen-tasks.ts`: vip tag, coupon switch-off, purchase question, reschedule webinar, teacher profile, course outline, digital product, monthly numbers, cancel membership, page rollback, plan contents, school settings and logo), each step in the words an administrator uses ("look up a coupon by its code", "add a tag to a member"). The same played agent works through them in a session of its own, on a new token store, with the default flags. Before searching, the agent looks among the tools and search results it has seen for the one operation that reads or changes as the step does, takes exactly the arguments it has, and is named after a thing the step names or the item it holds the id of; of several, the one whose name and title share the most words with the step; it searches when none fits or several fit equally.',
    '',
    `| | 15 tasks, now | 12 tasks, before (${UNSEEN_BEFORE_COMMIT}) | 12 tasks, before the index (${BEFORE_INDEX_COMMIT}) | 12 tasks, now | aim for the 12 |`,
    '|---|---:|---:|---:|---:|---|',
    `| calls | ${count(now.calls)} | ${count(UNSEEN_BEFORE.calls)} | ${count(BEFORE_INDEX.twelve.calls)} | ${count(unseen.calls)} | |`,
    `| discovery calls (search, describe), share of calls | ${share(now)} | ${share(UNSEEN_BEFORE)} | ${share(BEFORE_INDEX.twelve)} | ${share(unseen)} | at most ${percent(UNSEEN_AIMS.discoveryShare)}: ${verdict(unseenShare <= UNSEEN_AIMS.discoveryShare)} |`,
    `| consent prompts | ${count(now.prompts)} | ${count(UNSEEN_BEFORE.prompts)} | | ${count(unseen.prompts)} | |`,
    `| tasks done | ${count(now.tasks - new Set(now.toolErrors.map((error) => error.split(':')[0])).size)} of ${count(now.tasks)} | ${count(UNSEEN_BEFORE.tasksDone)} of ${count(UNSEEN_BEFORE.tasks)} | 12 of 12 | ${count(unseen.tasksDone)} of ${count(unseen.tasks)} | all: ${verdict(unseen.tasksDone === unseen.tasks)} |`,
    `| tool errors and steps with nothing found | ${count(now.toolErrors.length)} | ${count(UNSEEN_BEFORE.toolErrors.length)} | 0 | ${count(unseen.toolErrors.length)} | none: ${verdict(unseen.toolErrors.length === 0)} |`,
    ...(unseen.toolErrors.length > 0
      ? ['', ...unseen.toolErrors.map((error) => `- ${error.replace(/\n/g, ' ').slice(0, 300)}`)]
      : []),
    '',
    ...(unseenShare > UNSEEN_AIMS.discoveryShare
      ? [
          `- **Discovery: ${percent(unseenShare)} of calls, not ${percent(UNSEEN_AIMS.discoveryShare)}.** No task stopped and no search was repeated in vain. Each search left is one the played agent makes because no operation it has seen is named in the step's words: it compares words literally (plurals folded, nothing else), and the steps say teacher, student, discount code, money, enrolled, registered or logo where the operations say lecturer, member, coupon, revenue, enrollment, attendee and appearance; or two siblings fit a step equally (attach or detach a course to a plan; a page, or its deployments, for its version history). Once it took \`get_course\` for "the chapters of the course", found no chapter in the answer and searched. One search finds each of these, because the search knows the school's words (recall at 3 below). Listing more tools would not spare them: the agent matches a listed name no better than an indexed one. The played agent is kept literal, so that it does not share the server's idea of a match; a model that knows these synonyms makes none of these searches.`,
        ]
      : []),
  ];
}

/** Recall at 3 of search in the administrator's words, each half of the phrasings. */
function recallSection(recall: NonNullable<AgentFigures['searchRecall']>): string[] {
  const cell = (figures: { found: number; total: number }) =>
    `${count(figures.found)} of ${count(figures.total)} (${percent(figures.found / Math.max(1, figures.total))})`;
  return [
    "### Search in the administrator's words",
    '',
    "Recall at 3 of `search_operations` on the sandbox school: for each of the 180 phrasings of `test/fixtures/search/phrasings.json` (several per operation, written as people write requests, before the search was tuned), whether an operation that answers it is among the first three results. The phrasings are split, fixed and committed, into a tuning half, the only one the search was tuned on, and a held-back half. Measured in the bench's process on this commit's search (`test/openapi/search-recall.test.ts` checks the same figures).",
    '',
    `| | before (${UNSEEN_BEFORE_COMMIT}) | now | aim |`,
    '|---|---:|---:|---|',
    `| tuning half | ${cell(RECALL_BEFORE.tuning)} | ${cell(recall.tuning)} | |`,
    `| held-back half | ${cell(RECALL_BEFORE.heldBack)} | ${cell(recall.heldBack)} | at least ${percent(UNSEEN_AIMS.heldBackRecall)}: ${verdict(recall.heldBack.found / Math.max(1, recall.heldBack.total) >= UNSEEN_AIMS.heldBackRecall)} |`,
  ];
}

function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}

/** Why the figures are what they are, and why an aim is not met where it is not. */
function explanations(now: AgentFigures): string[] {
  const lines = [
    "- **The default list** is the operations that 11 of the 15 tasks need (`DEFAULT_TOOLS` in `src/server/tool-plan.ts`), listed compactly: every output schema is left out of the default list, since a host gains nothing from it there (the server still checks each `structuredContent` against it, `describe_operation` shows it, and hosts hand a model only the name, description and input schema); input schemas leave out the checks the server runs anyway before anything is sent (`pattern`, lengths, bounds), naming the field when one fails; annotations leave out values equal to MCP's defaults. `--toolsets ...` lists every tool in full, output schemas included. Course drafting, webinars, lecturers and pages go through discovery: listing them too would take the list over 6,000 tokens.",
    `- **Discovery**: the server's instructions name every operation that is not a tool of its own with its arguments (\`update_member(member_id*, email, name, tags)\`, reads apart from changes; \`src/server/operation-index.ts\`), so the agent calls one it recognises without searching first. Before the index (${BEFORE_INDEX_COMMIT}, same played agent) the 15 tasks took ${count(BEFORE_INDEX.fifteen.calls)} calls, ${count(BEFORE_INDEX.fifteen.discoveryCalls)} of them discovery, and the instructions were ${count(BEFORE_INDEX.instructionsTokens)} tokens: the index costs about ${count(Math.max(0, (now.instructionsTokens ?? 0) - BEFORE_INDEX.instructionsTokens))} tokens once per conversation, less than the search answers it spares. \`search_operations\` shows each result's arguments in one line (\`"kind*: video|text|quiz|file"\`), so the agent calls without describing first; reads run through \`call_read_operation\` (\`readOnlyHint\`), changes through \`call_operation\` (\`destructiveHint\`).`,
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
