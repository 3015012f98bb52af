import { describe, expect, it } from 'vitest';
import { argumentSummary, listOrder } from '../../src/server/argument-summary.js';

describe("a search result's argument lines", () => {
  it('keep whether a list replaces the stored one or is added to it, as the schema says', () => {
    const lines = argumentSummary({
      type: 'object',
      properties: {
        member_id: { type: 'string' },
        tags: {
          type: 'array',
          items: { type: 'string' },
          description: 'Free-form tags. An update replaces the whole list.',
        },
        notes: { type: 'array', items: { type: 'string' }, description: 'Appended to the existing notes.' },
        course_ids: { type: 'array', items: { type: 'string' }, description: 'The courses to add to the plan.' },
      },
      required: ['member_id'],
    });
    expect(lines).toEqual([
      'member_id*: string',
      'tags: string[] (replaces)',
      'notes: string[] (adds)',
      'course_ids: string[]',
    ]);
  });

  it('say the order a list comes in, where its description states one', () => {
    expect(listOrder('Lists orders oldest first. Filter by date range.')).toBe('oldest first');
    expect(listOrder('Lists the courses of the school, newest last.')).toBe('newest last');
    expect(listOrder('Lists members in signup order.')).toBe('in signup order');
    expect(listOrder('Lists events by start time.')).toBe('by start time');
    expect(listOrder('Gets one order by id.')).toBeUndefined();
  });
});
