/**
 * Administrator tasks 9-15 of tools/bench/agent-session/tasks.ts, as a careful agent would do them against the
 * sandbox over real HTTP, each with only the scopes the task needs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchoolClient } from './school-client.js';

let api: SchoolClient;
beforeAll(async () => {
  api = await SchoolClient.start();
});
afterAll(() => api.close());

describe('administrator tasks 9-15', () => {
  it('9. set up a webinar next Tuesday with 50 seats, then see who registered', async () => {
    const token = await api.token(['events:write', 'events:read']);
    const start = new Date(Date.now() + 6 * 86_400_000);
    start.setUTCHours(17, 0, 0, 0);
    const end = new Date(start.getTime() + 3_600_000);
    const iso = (date: Date) => date.toISOString().replace('.000Z', 'Z');
    const refused = await api.post('/events', {
      token,
      body: { title: 'Backwards', starts_at: iso(end), ends_at: iso(start), capacity: 50 },
    });
    expect(refused.body.fields).toEqual([{ field: 'ends_at', message: 'must be after starts_at' }]);
    const event = await api.post('/events', {
      token,
      body: {
        title: 'Webinar: glazing',
        starts_at: iso(start),
        ends_at: iso(end),
        capacity: 50,
        location_type: 'online',
        location: 'https://meet.example.com/glaze',
        state: 'published',
      },
    });
    expect(event.status).toBe(201);
    const ticket = await api.post(`/events/${event.body.id}/tickets`, {
      token,
      body: { name: 'Free seat', quantity: 50 },
    });
    expect(ticket.body).toMatchObject({ event_id: event.body.id, price_cents: 0 });
    expect((await api.get(`/events/${event.body.id}/attendees`, { token })).body.total).toBe(0);
    expect((await api.get(`/events/${event.body.id}/tickets`)).body.items).toHaveLength(1);
    const seeded = (await api.get('/events', { token, query: { state: 'published' } })).body.items[0];
    const attendees = await api.all(`/events/${seeded.id}/attendees`, { token });
    expect(attendees.length).toBeGreaterThan(0);
    expect(attendees[0]).toHaveProperty('member_email');
    const noShows = await api.all(`/events/${seeded.id}/attendees`, { token, query: { state: 'no_show' } });
    for (const attendee of noShows) expect(attendee.state).toBe('no_show');
  });

  it('10. write a blog post as a draft, then publish it', async () => {
    const token = await api.token(['posts:write', 'posts:read']);
    const draft = await api.post('/posts', {
      token,
      body: { title: 'New course: Bookbinding', body: 'Use code SPRING25.' },
    });
    expect(draft.body).toMatchObject({ state: 'draft', published_at: null });
    expect((await api.get(`/posts/${draft.body.id}`)).status).toBe(404);
    const published = await api.patch(`/posts/${draft.body.id}`, { token, body: { state: 'published' } });
    expect(published.body.state).toBe('published');
    const visitorView = await api.get(`/posts/${draft.body.id}`);
    expect(visitorView.status).toBe(200);
    expect(visitorView.body.body).toContain('SPRING25');
  });

  it('11. add Dr. Lin as lecturer on a course', async () => {
    const token = await api.token(['lecturers:write', 'lecturers:read', 'courses:write', 'courses:read']);
    const lecturer = await api.post('/lecturers', {
      token,
      body: { name: 'Dr. Lin', email: 'dr.lin@example.com', headline: 'Art historian' },
    });
    expect(lecturer.status).toBe(201);
    const course = (await api.get('/courses/crs_0002', { token })).body;
    for (let attempt = 0; attempt < 2; attempt++) {
      const attached = await api.post(`/courses/${course.id}/lecturers`, {
        token,
        body: { lecturer_id: lecturer.body.id },
      });
      expect(attached.body.lecturer_ids).toEqual([...course.lecturer_ids, lecturer.body.id]);
    }
    expect((await api.get(`/lecturers/${lecturer.body.id}`, { token })).body.course_ids).toEqual([course.id]);
    const publicProfile = await api.get(`/lecturers/${lecturer.body.id}`);
    expect(publicProfile.body.email).toBeNull();
  });

  it('12. change the colours and logo, then deploy a landing page, read its log and roll back', async () => {
    const token = await api.token(['appearance:write', 'school:write', 'pages:write', 'pages:read', 'storage:write']);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }), 'logo new.png');
    const upload = await fetch(`${api.sandbox.url}/api/v1/storage/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const logo = (await upload.json()) as { url: string; filename: string };
    expect(logo.filename).toBe('logo_new.png');
    const badColour = await api.patch('/appearance', { token, body: { primary_color: 'red' } });
    expect(badColour.body.fields[0].field).toBe('primary_color');
    const appearance = await api.patch('/appearance', {
      token,
      body: { primary_color: '#AA3355', logo_url: logo.url },
    });
    expect(appearance.body).toMatchObject({ primary_color: '#AA3355', logo_url: logo.url });
    expect((await api.get('/appearance')).body.logo_url).toBe(logo.url);
    const page = await api.post('/pages', { token, body: { title: 'Autumn sale', html: '<h1>v1</h1>' } });
    expect(page.body).toMatchObject({ slug: 'autumn-sale', state: 'draft' });
    const v1 = await api.post(`/pages/${page.body.id}/deployments`, { token, body: { message: 'first' } });
    await api.patch(`/pages/${page.body.id}`, { token, body: { html: '<h1>v2 broken</h1>' } });
    const v2 = await api.post(`/pages/${page.body.id}/deployments`, { token });
    expect(v2.body).toMatchObject({ version: 2, status: 'live' });
    const log = await api.get(`/pages/${page.body.id}/deployments`, { token });
    expect(log.body.items.map((item: { version: number; status: string }) => [item.version, item.status])).toEqual([
      [2, 'live'],
      [1, 'superseded'],
    ]);
    const rolledBack = await api.post(`/pages/${page.body.id}/rollback`, {
      token,
      body: { deployment_id: v1.body.id },
    });
    expect(rolledBack.body).toMatchObject({ version: 1, status: 'live' });
    expect((await api.get(`/pages/${page.body.id}`)).body.html).toBe('<h1>v1</h1>');
  });

  it('13. summarise recent comments and reviews of a course and flag low ratings', async () => {
    const token = await api.token(['comments:read', 'courses:read']);
    const course = (await api.get('/courses', { token, query: { state: 'published' } })).body.items[0];
    const comments = await api.all('/comments', { token, query: { course_id: course.id } });
    expect(comments.length).toBeGreaterThan(0);
    for (const comment of comments) expect(comment.course_id).toBe(course.id);
    const unhappy = await api.all('/comments', { token, query: { kind: 'review', max_rating: 2 } });
    for (const review of unhappy) expect(review.rating).toBeLessThanOrEqual(2);
    const dates = comments.map((comment) => comment.created_at);
    expect(dates).toEqual([...dates].sort((a, b) => b.localeCompare(a)));
  });

  it('14. export form submissions', async () => {
    const token = await api.token(['forms:read']);
    const forms = await api.all('/forms', { token });
    expect(forms.map((form) => form.title)).toContain('Newsletter signup');
    const newsletter = forms.find((form) => form.title === 'Newsletter signup');
    const submissions = await api.all(`/forms/${newsletter.id}/submissions`, { token });
    expect(submissions).toHaveLength(newsletter.submission_count);
    expect(Object.keys(submissions[0].values).sort()).toEqual(['email', 'name']);
  });

  it('15. who am I connected as, and what may I do', async () => {
    const scopes = ['openid', 'profile', 'email', 'account:read'];
    const token = await api.token(scopes);
    const userinfo = await fetch(`${api.sandbox.url}/api/oauth/userinfo`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(userinfo.status).toBe(200);
    const account = await api.get('/account', { token });
    expect(account.body).toMatchObject({
      id: 'usr_owner_ada',
      org_id: 'org_sandbox_academy',
      roles: ['owner', 'admin'],
    });
    expect([...account.body.granted_scopes].sort((a, b) => a.localeCompare(b))).toEqual(
      [...scopes].sort((a, b) => a.localeCompare(b)),
    );
    const write = await api.patch('/account', { token, body: { timezone: 'Europe/Paris' } });
    expect(write.status).toBe(403);
    expect(write.headers.get('www-authenticate')).toContain('scope="account:write"');
  });
});
