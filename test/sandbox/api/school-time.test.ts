/** The sandbox's one date convention, as pure functions: days in the school's zone, UTC on write. */
import { describe, expect, it } from 'vitest';
import { enrollmentSummary, resolveRange, revenueSummary } from '../../../packages/sandbox/src/api/routes/analytics.js';
import { storedExpiry } from '../../../packages/sandbox/src/api/routes/coupons.js';
import {
  dayInZone,
  filterInstant,
  isDateOrDateTime,
  isDay,
  schoolDay,
  startOfDay,
  writtenInstant,
} from '../../../packages/sandbox/src/api/school-time.js';
import { seedSchool } from '../../../packages/sandbox/src/api/index.js';
import { inRange, inStates } from '../../../packages/sandbox/src/api/lookup.js';
import { withUtcDateTimes } from '../../../packages/sandbox/src/api/utc-on-write.js';
import { readQuery } from '../../../packages/sandbox/src/api/validate.js';
import { s } from '../../../packages/sandbox/src/api/schema.js';

const BERLIN = 'Europe/Berlin';

describe('school time', () => {
  it('accepts real dates and date-times alike and refuses impossible days', () => {
    expect(isDateOrDateTime('2026-11-27')).toBe(true);
    expect(isDateOrDateTime('2026-11-27T09:30:00+01:00')).toBe(true);
    expect(isDateOrDateTime('2026-11-27T09:30:00.250Z')).toBe(true);
    expect(isDay('2026-02-31')).toBe(false);
    expect(isDateOrDateTime('2026-02-31T00:00:00Z')).toBe(false);
    expect(isDateOrDateTime('27.11.2026')).toBe(false);
    expect(isDateOrDateTime('2026-11-27T09:30')).toBe(false);
  });

  it('starts a day at its local midnight, in winter and in summer time', () => {
    expect(new Date(startOfDay('2026-11-27', BERLIN)).toISOString()).toBe('2026-11-26T23:00:00.000Z');
    expect(new Date(startOfDay('2026-07-01', BERLIN)).toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(new Date(startOfDay('2026-03-29', BERLIN)).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(new Date(startOfDay('2026-11-27', 'UTC')).toISOString()).toBe('2026-11-27T00:00:00.000Z');
  });

  it('names the school day that contains an instant', () => {
    expect(dayInZone(Date.parse('2026-11-26T23:30:00Z'), BERLIN)).toBe('2026-11-27');
    expect(schoolDay('2026-11-26T23:30:00Z', BERLIN)).toBe('2026-11-27');
    expect(schoolDay('2026-11-26', BERLIN)).toBe('2026-11-26');
  });

  it('reads a filter bound as a date in the school zone or as the date-time given', () => {
    expect(filterInstant('2026-11-27', BERLIN)).toBe('2026-11-26T23:00:00Z');
    expect(filterInstant('2026-11-27T10:00:00+02:00', BERLIN)).toBe('2026-11-27T08:00:00Z');
    expect(inRange('2026-11-26T23:30:00Z', '2026-11-27', '2026-11-28', BERLIN)).toBe(true);
    expect(inRange('2026-11-26T22:30:00Z', '2026-11-27', undefined, BERLIN)).toBe(false);
    expect(inRange('2026-11-27T23:00:00Z', undefined, '2026-11-28', BERLIN)).toBe(false);
  });

  it('stores written moments in UTC; an expiry date lasts through the end of that school day', () => {
    expect(writtenInstant('2026-11-27T12:00:00+01:00', BERLIN)).toBe('2026-11-27T11:00:00Z');
    expect(writtenInstant('2026-11-27', BERLIN)).toBe('2026-11-26T23:00:00Z');
    expect(storedExpiry('2026-11-27', BERLIN)).toBe('2026-11-27T22:59:59Z');
    expect(storedExpiry('2026-06-30T23:59:59-04:00', BERLIN)).toBe('2026-07-01T03:59:59Z');
    expect(storedExpiry(null, BERLIN)).toBeNull();
  });

  it('rewrites every date-time of a body in UTC, nested and nullable ones too', () => {
    const schema = s.object(
      {
        starts_at: s.dateTime('Start.'),
        note: s.string('Note.'),
        until: s.nullable(s.dateTime('End.')),
        list: s.array(s.dateTime('A moment.'), 'Moments.'),
      },
      [],
    );
    const body = {
      starts_at: '2026-11-27T18:00:00+01:00',
      note: '2026-11-27T18:00:00+01:00',
      until: null,
      list: ['2026-07-01T00:00:00.500+02:00'],
    };
    expect(withUtcDateTimes(body, schema, {})).toEqual({
      starts_at: '2026-11-27T17:00:00Z',
      note: body.note,
      until: null,
      list: ['2026-06-30T22:00:00Z'],
    });
  });
});

describe('multi-value state filters', () => {
  const query = s.object({ state: s.oneOrMoreOf(['active', 'past_due', 'canceled'], 'States.') }, []);

  it('reads a state filter given repeated or comma-separated', () => {
    expect(readQuery(new URLSearchParams('state=past_due&state=active'), query, {}).value).toEqual({
      state: ['past_due', 'active'],
    });
    expect(readQuery(new URLSearchParams('state=past_due,active'), query, {}).value).toEqual({
      state: ['past_due', 'active'],
    });
    expect(readQuery(new URLSearchParams('state=late'), query, {}).problems).toEqual([
      { field: 'state.0', message: 'must be one of active, past_due, canceled' },
    ]);
  });

  it('matches a record in any of the states asked, and every record when none is asked', () => {
    expect(inStates(['past_due', 'active'], 'active')).toBe(true);
    expect(inStates(['past_due'], 'active')).toBe(false);
    expect(inStates(undefined, 'active')).toBe(true);
  });
});

describe('analytics in the school time zone', () => {
  const now = new Date('2026-11-28T12:00:00Z');

  it('resolves the range to school days and their UTC bounds', () => {
    expect(resolveRange({ from: '2026-11-27', to: '2026-11-27T23:30:00Z' }, now, BERLIN)).toEqual({
      range: { from: '2026-11-27', to: '2026-11-28' },
      start: '2026-11-26T23:00:00Z',
      end: '2026-11-28T23:00:00Z',
    });
    expect(resolveRange({}, new Date('2026-11-27T23:30:00Z'), BERLIN).range).toEqual({
      from: '2026-10-30',
      to: '2026-11-28',
    });
  });

  it('counts a member who signed up at 00:30 Berlin time on the 27th in the 27th, not the 26th', () => {
    const state = seedSchool(now);
    state.members.push({
      id: 'mem_9990',
      email: 'late@example.com',
      name: 'Late',
      tags: [],
      created_at: '2026-11-26T23:30:00Z',
      last_sign_in_at: null,
    });
    const on = (day: string) => {
      const { start, end } = resolveRange({ from: day, to: day }, now, BERLIN);
      return state.members
        .filter((member) => member.created_at >= start && member.created_at < end)
        .map((member) => member.id);
    };
    expect(on('2026-11-27')).toContain('mem_9990');
    expect(on('2026-11-26')).not.toContain('mem_9990');
    const { start, end } = resolveRange({ from: '2026-11-27', to: '2026-11-27' }, now, BERLIN);
    const withLate = enrollmentSummary(state, start, end).new_members;
    state.members.pop();
    expect(enrollmentSummary(state, start, end).new_members).toBe(withLate - 1);
  });

  it('puts an order paid at 00:30 Berlin time on 1 December in December', () => {
    const state = seedSchool(now);
    const order = state.orders.find((candidate) => candidate.state === 'paid')!;
    order.paid_at = '2026-11-30T23:30:00Z';
    const { start, end } = resolveRange({ from: '2026-12-01', to: '2026-12-01' }, now, BERLIN);
    const summary = revenueSummary(state, start, end);
    expect(summary.by_month.map((month) => month.month)).toEqual(['2026-12']);
    expect(summary.paid_orders).toBe(1);
  });
});
