/**
 * The scripted agent session cannot rot: the 15 administrator tasks run once more per test run,
 * against the sandbox school and the built school-mcp as real processes with the default flags,
 * and the agent-experience aims are checked on the figures BENCHMARKS.md shows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_AIMS } from '../../tools/bench/agent-session/agent-report.js';
import { agentFigures, type AgentFigures } from '../../tools/bench/agent-session/figures.js';
import { bestByName } from '../../tools/bench/agent-session/played-agent.js';
import { runAgentSessions, type AgentSessionResult } from '../../tools/bench/agent-session/session.js';
import { administratorTasks } from '../../tools/bench/agent-session/tasks.js';
import { loadTokenCounter } from '../../tools/bench/token-count.js';

const countTokens = loadTokenCounter();

describe('the agent session, with the default flags', () => {
  let result: AgentSessionResult;
  let figures: AgentFigures;

  beforeAll(async () => {
    // js-tiktoken is a devDependency for this check; without it no token aim could be checked.
    expect(countTokens, 'js-tiktoken must be installed').toBeDefined();
    // Today's dates: a coupon's expiry and a webinar's start must lie ahead of the school's clock.
    result = await runAgentSessions({ countTokens: countTokens! });
    figures = agentFigures(result, countTokens!);
  }, 60_000);

  it('does all 15 tasks, twice, without a tool error', () => {
    expect(figures.tasks).toBe(15);
    expect(result.second.record.tasks).toHaveLength(15);
    expect(figures.toolErrors).toEqual([]);
  });

  it('lists a default tools/list within 6,000 tokens that covers at least 10 tasks, so that they need no discovery tool', () => {
    expect(figures.listTokens).toBeLessThanOrEqual(AGENT_AIMS.listTokens);
    expect(figures.tasksWithListedTools).toBeGreaterThanOrEqual(AGENT_AIMS.tasksWithListedTools);
  });

  it('takes at most 60 calls, 10 of them discovery calls, and no result over 4,000 tokens', () => {
    expect(figures.calls).toBeLessThanOrEqual(AGENT_AIMS.calls);
    expect(figures.discoveryCalls).toBeLessThanOrEqual(AGENT_AIMS.discoveryCalls);
    expect(figures.largestResultTokens).toBeLessThanOrEqual(AGENT_AIMS.largestResultTokens);
  });

  it('reads through the read-only call tool, and changes through the destructive one', () => {
    const discovered = result.first.record.calls.filter((call) => call.operation !== undefined);
    const annotations = new Map(result.list.tools.map((tool) => [tool.name, tool.annotations]));
    expect(discovered.length).toBeGreaterThan(0);
    for (const call of discovered) {
      const readOnly = annotations.get(call.tool)?.readOnlyHint === true;
      expect(readOnly, `${call.tool} → ${call.operation}`).toBe(/^(list|get)_/.test(call.operation!));
    }
  });

  it('asks once for the reads, then once per write group with its read, and nothing in a second session', () => {
    const [first, ...writes] = result.first.prompts;
    expect(first!.scopes.filter((scope) => scope.endsWith(':write'))).toEqual([]);
    expect(figures.writeConsents).toBe(writes.length);
    expect(figures.writeConsentsWithRead).toBe(figures.writeConsents);
    expect(figures.secondSessionPrompts).toBe(0);
  });
});

describe('the played agent', () => {
  it('takes the listed tool made of the most of the step\'s words, and none with a word the step lacks', () => {
    const names = ['get_coupon', 'get_coupon_by_code', 'list_courses', 'create_event', 'create_event_ticket'];
    expect(bestByName(names, 'get coupon by code')).toBe('get_coupon_by_code');
    expect(bestByName(names, 'create event ticket')).toBe('create_event_ticket');
    expect(bestByName(names, 'create event')).toBe('create_event');
    expect(bestByName(names, 'list courses published')).toBe('list_courses');
    expect(bestByName(names, 'list event attendees')).toBeUndefined();
  });

  it('has the 15 tasks of the issue, each named by its words and never by a tool name', () => {
    const tasks = administratorTasks(1, new Date('2026-11-23T12:00:00Z'));
    expect(tasks.map((task) => task.title)).toEqual([
      'school health', 'enrolment', 'stuck students', 'coupon', 'course draft', 'course update', 'failed subscriptions', 'membership plan',
      'webinar', 'blog post', 'lecturer', 'appearance and page deploy', 'comments', 'form export', 'who am I',
    ]);
    for (const step of tasks.flatMap((task) => task.steps)) expect(step.want).not.toContain('_');
  });
});
