/**
 * The API's rules in-process, with a Map-based token verifier: pagination bounds, input
 * validation, state machines, resource binding, the seed and `dataFile` persistence.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccessTokenInfo } from '../../../packages/sandbox/src/access-token.js';
import { createSchoolApi, seedSchool, type SchoolApi } from '../../../packages/sandbox/src/api/index.js';
import { decideAccess } from '../../../packages/sandbox/src/api/protect.js';
import { Router } from '../../../packages/sandbox/src/http/router.js';
import { ALL_SCOPES } from '@school-mcp/sandbox';

const BASE = 'http://127.0.0.1:4000';
const NOW = new Date('2026-03-14T09:30:00Z');

function tokenInfo(overrides: Partial<AccessTokenInfo> = {}): AccessTokenInfo {
  return {
    clientId: 'client',
    subject: 'usr_owner_ada',
    scopes: [...ALL_SCOPES],
    resource: BASE,
    issuedAt: 0,
    expiresAt: 2_000_000_000,
    ...overrides,
  };
}

const tokens = new Map<string, AccessTokenInfo>([
  ['all', tokenInfo()],
  ['elsewhere', tokenInfo({ resource: 'https://other.example/api' })],
  ['unbound', tokenInfo({ resource: undefined })],
]);

const opened: SchoolApi[] = [];
const directories: string[] = [];
afterEach(async () => {
  for (const api of opened.splice(0)) await api.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function school(options: { dataFile?: string } = {}) {
  const api = createSchoolApi({
    baseUrl: BASE,
    resource: BASE,
    verifier: { verifyAccessToken: (token) => tokens.get(token) },
    options: { now: () => NOW, ...options },
  });
  opened.push(api);
  const router = new Router();
  api.mount(router);
  return async (method: string, path: string, options: { token?: string; body?: unknown } = {}) => {
    const url = new URL(`${BASE}/api/v1${path}`);
    const { route } = router.match(method, url.pathname);
    if (!route) throw new Error(`no route for ${method} ${path}`);
    const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? 'all'}` };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const request = new Request(url, {
      method,
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
    });
    const response = await route.handler(request, { params: route.params, url });
    return { status: response.status, body: (await response.json()) as any };
  };
}

describe('pagination', () => {
  it('defaults to 20 per page and says the total and whether a next page exists', async () => {
    const call = school();
    const first = await call('GET', '/members');
    expect(first.body).toMatchObject({ page: 1, per_page: 20, total: 200, total_pages: 10, has_next_page: true });
    expect(first.body.items).toHaveLength(20);
    const last = await call('GET', '/members?page=4&per_page=50');
    expect(last.body).toMatchObject({ has_next_page: false });
    expect(last.body.items).toHaveLength(50);
    expect((await call('GET', '/members?page=5&per_page=50')).body.items).toEqual([]);
  });

  it.each([
    ['per_page=51', 'per_page'],
    ['per_page=0', 'per_page'],
    ['page=0', 'page'],
    ['page=two', 'page'],
    ['sort=name', 'sort'],
  ])('refuses %s with 400 naming the parameter', async (query, field) => {
    const answer = await school()('GET', `/members?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.fields.map((problem: { field: string }) => problem.field)).toEqual([field]);
  });
});

describe('input validation', () => {
  it('names every offending field of a body', async () => {
    const answer = await school()('POST', '/courses', { body: { price_cents: -1, currency: 'XYZ', colour: 'red' } });
    expect(answer.status).toBe(400);
    expect(answer.body.fields).toEqual([
      { field: 'title', message: 'is required' },
      { field: 'price_cents', message: 'must be at least 0' },
      { field: 'currency', message: 'must be one of USD, EUR, GBP' },
      { field: 'colour', message: 'is not a known field' },
    ]);
  });

  it('refuses a malformed id in the path before looking anything up', async () => {
    const answer = await school()('GET', '/courses/..%2Fadmin');
    expect(answer.status).toBe(400);
    expect(answer.body.fields[0].field).toBe('course_id');
  });
});

describe('state machines', () => {
  it('moves a course draft → published → archived and refuses every other move', async () => {
    const call = school();
    const course = (await call('POST', '/courses', { body: { title: 'Knots' } })).body;
    const early = await call('PATCH', `/courses/${course.id}`, { body: { state: 'published' } });
    expect(early).toMatchObject({ status: 409, body: { error: 'invalid_state_transition' } });
    expect((await call('PATCH', `/courses/${course.id}`, { body: { state: 'archived' } })).status).toBe(409);
    const section = (await call('POST', `/courses/${course.id}/sections`, { body: { title: 'One' } })).body;
    await call('POST', `/courses/${course.id}/lectures`, {
      body: { section_id: section.id, title: 'Bowline', kind: 'video' },
    });
    expect((await call('PATCH', `/courses/${course.id}`, { body: { state: 'published' } })).body.course.state).toBe(
      'published',
    );
    expect((await call('PATCH', `/courses/${course.id}`, { body: { state: 'draft' } })).status).toBe(409);
    expect((await call('PATCH', `/courses/${course.id}`, { body: { state: 'archived' } })).body.course.state).toBe(
      'archived',
    );
    const back = await call('PATCH', `/courses/${course.id}`, { body: { state: 'published' } });
    expect(back.body.error_description).toContain('archived is final');
  });

  it('cancels a subscription once and refuses to cancel an expired one', async () => {
    const call = school();
    const active = (await call('GET', '/subscriptions?state=active')).body.items[0];
    const cancelled = await call('POST', `/subscriptions/${active.id}/cancel`);
    expect(cancelled.body).toMatchObject({ state: 'canceled', canceled_at: '2026-03-14T09:30:00Z' });
    expect((await call('POST', `/subscriptions/${active.id}/cancel`)).status).toBe(200);
    const expired = (await call('GET', '/subscriptions?state=expired')).body.items[0];
    expect((await call('POST', `/subscriptions/${expired.id}/cancel`)).status).toBe(409);
  });
});

describe('bearer rules (pure)', () => {
  const config = {
    verifier: { verifyAccessToken: (token: string) => tokens.get(token) },
    resource: BASE,
    resourceMetadataUrl: `${BASE}/.well-known/oauth-protected-resource`,
  };

  it('ERR-02 refuses a token bound by resource to another API with invalid_token', () => {
    const decision = decideAccess('Bearer elsewhere', ['courses:read'], config);
    expect(decision.allowed).toBe(false);
    if (!decision.allowed) {
      expect(decision.error.code).toBe('invalid_token');
      expect(decision.challenge).toBe(
        `Bearer error="invalid_token", error_description="the access token is bound to another resource (https://other.example/api)", resource_metadata="${BASE}/.well-known/oauth-protected-resource"`,
      );
    }
  });

  it('accepts a token without a resource binding, and treats no header as anonymous', () => {
    expect(decideAccess('Bearer unbound', ['courses:read'], config)).toMatchObject({
      allowed: true,
      caller: { kind: 'token' },
    });
    expect(decideAccess(null, ['courses:read'], config)).toEqual({ allowed: true, caller: { kind: 'anonymous' } });
    expect(decideAccess('Bearer ', ['courses:read'], config).allowed).toBe(false);
  });
});

describe('seed', () => {
  it('is deterministic for the same clock and has the volume and every state', () => {
    const first = seedSchool(NOW);
    expect(seedSchool(NOW)).toEqual(first);
    expect(first.courses).toHaveLength(10);
    expect(first.members).toHaveLength(200);
    expect(first.orders).toHaveLength(500);
    expect(new Set(first.orders.map((order) => order.state)).size).toBe(6);
    expect(new Set(first.subscriptions.map((subscription) => subscription.state)).size).toBe(6);
    expect(new Set(first.attendees.map((attendee) => attendee.state)).size).toBe(4);
    expect(new Set(first.courses.map((course) => course.state))).toEqual(new Set(['draft', 'published', 'archived']));
    const yearAgo = new Date(NOW.getTime() - 366 * 86_400_000).toISOString();
    for (const order of first.orders)
      expect(order.created_at > yearAgo && order.created_at <= NOW.toISOString()).toBe(true);
  });
});

describe('dataFile persistence', () => {
  it('keeps writes across a restart', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'school-api-'));
    directories.push(directory);
    const dataFile = join(directory, 'school.json');
    const before = school({ dataFile });
    const member = (await before('POST', '/members', { body: { email: 'kept@example.com', name: 'Kept' } })).body;
    await opened.pop()!.close();
    const after = school({ dataFile });
    const found = await after('GET', '/members?email=kept@example.com');
    expect(found.body.items).toEqual([member]);
    const next = (await after('POST', '/members', { body: { email: 'next@example.com', name: 'Next' } })).body;
    expect(next.id).not.toBe(member.id);
  });
});
