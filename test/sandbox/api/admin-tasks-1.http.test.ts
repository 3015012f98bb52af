/**
 * Administrator tasks 1-8 of tools/bench/agent-session/tasks.ts, as a careful agent would do them against the
 * sandbox over real HTTP, each with only the scopes the task needs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchoolClient } from './school-client.js';

let api: SchoolClient;
beforeAll(async () => {
  api = await SchoolClient.start();
});
afterAll(() => api.close());

const monthStart = () => `${new Date().toISOString().slice(0, 7)}-01`;

describe('administrator tasks 1-8', () => {
  it('1. how is the school doing this month: school, orders, new members, analytics', async () => {
    const token = await api.token(['school:read', 'orders:read', 'members:read', 'analytics:read']);
    const school = await api.get('/school', { token });
    expect(school.body).toMatchObject({ name: 'Sandbox Academy', currency: 'USD' });
    const from = monthStart();
    const paid = await api.all('/orders', { token, query: { created_after: `${from}T00:00:00Z`, state: 'paid' } });
    for (const order of paid) expect(order.created_at >= from && order.state === 'paid').toBe(true);
    const newMembers = await api.get('/members', { token, query: { created_after: `${from}T00:00:00Z` } });
    expect(newMembers.status).toBe(200);
    const revenue = await api.get('/analytics/revenue', { token, query: { from } });
    expect(revenue.status).toBe(200);
    const paidNet = paid.reduce((sum, order) => sum + order.amount_cents, 0);
    // Revenue counts by payment time, which the seed sets to the order time.
    expect(revenue.body.net_cents).toBe(paidNet);
    const enrolments = await api.get('/analytics/enrollments', { token, query: { from } });
    expect(enrolments.body.new_members).toBe(newMembers.body.total);
    const year = await api.get('/analytics/revenue', {
      token,
      query: { from: new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10) },
    });
    expect(year.body.paid_orders).toBeGreaterThan(250);
    expect(year.body.by_product[0].net_cents).toBeGreaterThanOrEqual(year.body.by_product.at(-1).net_cents);
  });

  it('2. enrol jane@x.com in a course: not found, create the member, enrol once', async () => {
    const token = await api.token(['members:read', 'members:write', 'students:write', 'students:read', 'courses:read']);
    const lookup = await api.get('/members', { token, query: { email: 'jane@x.com' } });
    expect(lookup.body.total).toBe(0);
    const created = await api.post('/members', { token, body: { email: 'jane@x.com', name: 'Jane X' } });
    expect(created.status).toBe(201);
    const again = await api.post('/members', { token, body: { email: 'JANE@x.com', name: 'Jane again' } });
    expect(again.status).toBe(409);
    const course = (await api.get('/courses', { token, query: { q: 'watercolour basics' } })).body.items[0];
    const enrol = { course_id: course.id, member_id: created.body.id };
    const first = await api.post('/enrollments', { token, body: enrol });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ member_email: 'jane@x.com', source: 'manual', progress_percent: 0 });
    const second = await api.post('/enrollments', { token, body: enrol });
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    const students = await api.all('/enrollments', { token, query: { course_id: course.id } });
    expect(students.filter((item) => item.member_email === 'jane@x.com')).toHaveLength(1);
  });

  it('3. who has not finished a course: course, lectures, unfinished enrollments', async () => {
    const token = await api.token(['courses:read', 'curriculum:read', 'students:read']);
    const course = (await api.get('/courses/crs_0001', { token })).body;
    const lectures = await api.all(`/courses/${course.id}/lectures`, { token });
    expect(lectures.length).toBeGreaterThan(5);
    const unfinished = await api.all('/enrollments', { token, query: { course_id: course.id, completed: false } });
    expect(unfinished.length).toBeGreaterThan(0);
    for (const enrollment of unfinished) {
      expect(enrollment.completed_at).toBeNull();
      expect(enrollment.lectures_total).toBe(lectures.length);
    }
    const stuck = await api.all('/enrollments', { token, query: { course_id: course.id, progress_below: 50 } });
    for (const enrollment of stuck) expect(enrollment.progress_percent).toBeLessThan(50);
  });

  it('4. create a 20%-off coupon SPRING25 for one course until Friday, 100 uses, then verify by code', async () => {
    const token = await api.token(['coupons:read', 'coupons:write', 'courses:read']);
    const course = (await api.get('/courses', { token, query: { state: 'published' } })).body.items[0];
    const friday = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10) + 'T23:59:59Z';
    const body = {
      code: 'SPRING25',
      discount_type: 'percent',
      percent_off: 20,
      course_ids: [course.id],
      expires_at: friday,
      max_redemptions: 100,
    };
    const created = await api.post('/coupons', { token, body });
    expect(created.status).toBe(201);
    expect((await api.post('/coupons', { token, body })).status).toBe(409);
    const found = await api.get('/coupons/by_code/spring25', { token });
    expect(found.body).toMatchObject({
      id: created.body.id,
      code: 'SPRING25',
      percent_off: 20,
      course_ids: [course.id],
      active: true,
      redemptions: 0,
    });
    const invalid = await api.post('/coupons', {
      token,
      body: { code: 'HALF', discount_type: 'percent', percent_off: 150 },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields).toEqual([{ field: 'percent_off', message: 'must be at most 100' }]);
  });

  it('5. draft a course from an outline: course, sections, lectures, an uploaded attachment', async () => {
    const token = await api.token(['courses:write', 'curriculum:write', 'curriculum:read', 'storage:write']);
    const course = await api.post('/courses', { token, body: { title: 'Bookbinding at Home', price_cents: 3900 } });
    expect(course.body).toMatchObject({ state: 'draft', slug: 'bookbinding-at-home', currency: 'USD' });
    const form = new FormData();
    form.append('file', new Blob(['%PDF-1.4 outline'], { type: 'application/pdf' }), 'outline.pdf');
    const upload = await fetch(`${api.sandbox.url}/api/v1/storage/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(upload.status).toBe(201);
    const file = (await upload.json()) as { url: string; size_bytes: number };
    const served = await fetch(file.url);
    expect(await served.text()).toBe('%PDF-1.4 outline');
    for (const title of ['Tools', 'First book', 'Finishing']) {
      const section = await api.post(`/courses/${course.body.id}/sections`, { token, body: { title } });
      expect(section.status).toBe(201);
      for (const lecture of ['Watch', 'Try it']) {
        const created = await api.post(`/courses/${course.body.id}/lectures`, {
          token,
          body: {
            section_id: section.body.id,
            title: `${title}: ${lecture}`,
            kind: 'text',
            content: 'Notes',
            attachment_urls: [file.url],
          },
        });
        expect(created.status).toBe(201);
      }
    }
    const outline = await api.get(`/courses/${course.body.id}/lectures`, { token });
    expect(outline.body.items.map((item: { title: string }) => item.title)).toEqual([
      'Tools: Watch',
      'Tools: Try it',
      'First book: Watch',
      'First book: Try it',
      'Finishing: Watch',
      'Finishing: Try it',
    ]);
  });

  it('6. update a course description and price with a dry run first, then publish', async () => {
    const token = await api.token(['courses:read', 'courses:write']);
    const course = (await api.get('/courses', { token, query: { state: 'draft' } })).body.items[0];
    const patch = { description: 'Updated outline', price_cents: 14900 };
    const preview = await api.patch(`/courses/${course.id}`, { token, query: { dry_run: true }, body: patch });
    expect(preview.body.dry_run).toBe(true);
    expect(preview.body.changes.map((change: { field: string }) => change.field).sort()).toEqual([
      'description',
      'price_cents',
    ]);
    expect((await api.get(`/courses/${course.id}`, { token })).body.price_cents).toBe(course.price_cents);
    const applied = await api.patch(`/courses/${course.id}`, { token, body: { ...patch, state: 'published' } });
    expect(applied.body).toMatchObject({ dry_run: false, course: { price_cents: 14900, state: 'published' } });
    expect(applied.body.course.published_at).not.toBeNull();
    expect((await api.get(`/courses/${course.id}`)).status).toBe(200);
  });

  it('7. list past-due subscriptions with their plans and member emails', async () => {
    const token = await api.token(['membership_plans:read', 'subscriptions:read', 'members:read']);
    const plans = await api.all('/membership_plans', { token });
    expect(plans.length).toBeGreaterThanOrEqual(3);
    const pastDue = await api.all('/subscriptions', { token, query: { state: 'past_due' } });
    expect(pastDue.length).toBeGreaterThan(0);
    for (const subscription of pastDue) {
      expect(subscription.state).toBe('past_due');
      const member = await api.get(`/members/${subscription.member_id}`, { token });
      expect(member.body.email).toBe(subscription.member_email);
      expect(plans.map((plan) => plan.id)).toContain(subscription.plan_id);
    }
  });

  it('8. create a monthly plan including two courses', async () => {
    const token = await api.token(['membership_plans:write', 'membership_plans:read', 'courses:read']);
    const [first, second] = (await api.get('/courses', { token, query: { state: 'published', per_page: 2 } })).body
      .items;
    const plan = await api.post('/membership_plans', {
      token,
      body: { name: 'Duo monthly', interval: 'month', price_cents: 1900, currency: 'USD' },
    });
    expect(plan.body).toMatchObject({ state: 'draft', course_ids: [] });
    for (const course of [first, second, first]) {
      const attached = await api.post(`/membership_plans/${plan.body.id}/courses`, {
        token,
        body: { course_id: course.id },
      });
      expect(attached.status).toBe(200);
    }
    const published = await api.patch(`/membership_plans/${plan.body.id}`, { token, body: { state: 'published' } });
    expect(published.body).toMatchObject({ state: 'published', course_ids: [first.id, second.id] });
    expect((await api.get(`/membership_plans/${plan.body.id}`)).body.course_ids).toEqual([first.id, second.id]);
  });
});
