/**
 * The sandbox as a school would be, over real HTTP: one date convention for every filter, moments
 * stored in UTC, and state filters that take several values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOfDay } from '../../../packages/sandbox/src/api/school-time.js';
import { SchoolClient } from './school-client.js';

let api: SchoolClient;
beforeAll(async () => {
  api = await SchoolClient.start();
});
afterAll(() => api.close());

describe('dates, time zones and state filters', () => {
  it('states the school time zone in the document and takes a date or a date-time in every date filter', async () => {
    const document = await (await fetch(`${api.sandbox.url}/openapi.json`)).json();
    expect(document.info.description).toContain("a date is a day in the school's time zone, Europe/Berlin");
    const token = await api.token(['members:read']);
    const day = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
    const byDay = await api.get('/members', { token, query: { created_after: day } });
    expect(byDay.status).toBe(200);
    const berlinMidnight = new Date(startOfDay(day, 'Europe/Berlin')).toISOString();
    const byMoment = await api.get('/members', { token, query: { created_after: berlinMidnight } });
    expect(byMoment.body.total).toBe(byDay.body.total);
    const impossible = await api.get('/members', { token, query: { created_after: '2026-02-31' } });
    expect(impossible.status).toBe(400);
    expect(impossible.body.fields[0].field).toBe('created_after');
  });

  it('takes a date-time as the bound of an analytics range, counted in school days', async () => {
    const token = await api.token(['analytics:read']);
    const summary = await api.get('/analytics/enrollments', {
      token,
      query: { from: '2026-11-26T23:30:00Z', to: '2026-11-27' },
    });
    expect(summary.status).toBe(200);
    expect(summary.body.range).toEqual({ from: '2026-11-27', to: '2026-11-27' });
  });

  it('stores a coupon expiry given as a date through the end of that school day, and one with an offset in UTC', async () => {
    const token = await api.token(['coupons:write', 'coupons:read']);
    const byDay = await api.post('/coupons', {
      token,
      body: { code: 'THROUGH27', discount_type: 'percent', percent_off: 10, expires_at: '2099-11-27' },
    });
    expect(byDay.status).toBe(201);
    expect(byDay.body.expires_at).toBe('2099-11-27T22:59:59Z');
    const byOffset = await api.patch(`/coupons/${byDay.body.id}`, {
      token,
      body: { expires_at: '2099-06-01T12:00:00+02:00' },
    });
    expect(byOffset.body.expires_at).toBe('2099-06-01T10:00:00Z');
  });

  it('stores an event start sent with an offset in UTC', async () => {
    const token = await api.token(['events:write']);
    const event = await api.post('/events', {
      token,
      body: {
        title: 'Evening glaze',
        starts_at: '2099-11-27T18:00:00+01:00',
        ends_at: '2099-11-27T19:30:00+01:00',
        capacity: 10,
      },
    });
    expect(event.status).toBe(201);
    expect(event.body).toMatchObject({ starts_at: '2099-11-27T17:00:00Z', ends_at: '2099-11-27T18:30:00Z' });
  });

  it('filters subscriptions by several states at once, given repeated or comma-separated', async () => {
    const token = await api.token(['subscriptions:read']);
    const pastDue = await api.all('/subscriptions', { token, query: { state: 'past_due' } });
    const incomplete = await api.all('/subscriptions', { token, query: { state: 'incomplete' } });
    expect(pastDue.length + incomplete.length).toBeGreaterThan(0);
    const repeated = await api.get('/subscriptions?state=past_due&state=incomplete', {
      token,
      query: { per_page: 50 },
    });
    expect(repeated.status).toBe(200);
    expect(repeated.body.total).toBe(pastDue.length + incomplete.length);
    expect(new Set(repeated.body.items.map((item: { state: string }) => item.state))).toEqual(
      new Set([...(pastDue.length > 0 ? ['past_due'] : []), ...(incomplete.length > 0 ? ['incomplete'] : [])]),
    );
    const commas = await api.get('/subscriptions', { token, query: { state: 'past_due,incomplete', per_page: 50 } });
    expect(commas.body.total).toBe(repeated.body.total);
  });
});
