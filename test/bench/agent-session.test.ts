/**
 * The played agent's pure parts: how it picks a listed tool, and the 15 tasks it is given. The
 * session itself runs in the bench's quick run, where its aims are checked (smoke.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { bestByName } from '../../tools/bench/agent-session/played-agent.js';
import { administratorTasks } from '../../tools/bench/agent-session/tasks.js';
import { unseenAdministratorTasks } from '../../tools/bench/agent-session/unseen-tasks.js';

describe('the played agent', () => {
  it("takes the listed tool made of the most of the step's words, and none with a word the step lacks", () => {
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
      'school health',
      'enrolment',
      'stuck students',
      'coupon',
      'course draft',
      'course update',
      'failed subscriptions',
      'membership plan',
      'webinar',
      'blog post',
      'lecturer',
      'appearance and page deploy',
      'comments',
      'form export',
      'who am I',
    ]);
    for (const step of tasks.flatMap((task) => task.steps)) expect(step.want).not.toContain('_');
  });

  it('has twelve more tasks the default list was not chosen for, also named by their words and never by a tool name', () => {
    const tasks = unseenAdministratorTasks(1, new Date('2026-11-23T12:00:00Z'));
    expect(tasks).toHaveLength(12);
    const fifteen = new Set(administratorTasks(1, new Date('2026-11-23T12:00:00Z')).map((task) => task.title));
    for (const task of tasks) expect(fifteen.has(task.title), task.title).toBe(false);
    for (const step of tasks.flatMap((task) => task.steps)) expect(step.want).not.toContain('_');
  });
});
