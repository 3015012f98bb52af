/**
 * End to end, once per transport and protocol era: the SDK's client drives the built `school-mcp`
 * as a child process (over stdio, then over Streamable HTTP; 2025-11-25, then 2026-07-28) against
 * the sandbox school over real HTTP, and works through the administrator tasks of
 * tools/bench/agent-session/tasks.ts the way an agent would. The test plays the user who opens the sign-in link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeConsent, startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { linkIn, MCP_TRANSPORTS, sdkEraName, startMcpServer, type McpTestServer } from '../helpers/mcp-server.js';

type Result = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  isError?: boolean;
};

const RUNS = MCP_TRANSPORTS.flatMap((transport) =>
  (['sessionful', 'stateless'] as const).map((era) => ({ transport, era })),
);

describe.each(RUNS)('administrator tasks through school-mcp over $transport ($era era)', ({ transport, era }) => {
  let sandbox: RunningSandbox;
  let server: McpTestServer;
  let approvals = 0;
  let stopApproving = false;

  async function approveLinks(): Promise<void> {
    while (!stopApproving) {
      const line = await server.waitForLine(/\/oauth\/authorize\?/, 60_000).catch(() => undefined);
      if (!line || stopApproving) return;
      const callback = await completeConsent(linkIn(line), 'allow');
      await (await fetch(callback)).text();
      approvals += 1;
    }
  }

  async function call(name: string, args: Record<string, unknown> = {}): Promise<Result> {
    return (await server.client.callTool({ name, arguments: args })) as Result;
  }

  async function callOk(name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const result = await call(name, args);
    expect(result.isError, `${name}: ${result.content.map((block) => block.text).join(' ')}`).toBeFalsy();
    return result.structuredContent ?? JSON.parse(result.content[0]!.text!);
  }

  beforeAll(async () => {
    sandbox = await startSandbox({ autoApprove: true });
    // The played user approves from the server's log, so calls wait for the approval (--link-wait).
    server = await startMcpServer({
      transport,
      era,
      args: ['--school', sandbox.url, '--no-browser', '--consent-wait', '60', '--link-wait', '60', '--toolsets', 'all'],
    });
    void approveLinks();
  });

  afterAll(async () => {
    stopApproving = true;
    await server?.close();
    await sandbox?.close();
  });

  it('lists every operation as a tool with annotations, before anyone signs in', async () => {
    expect(server.client.getProtocolEra()).toBe(sdkEraName(era));
    const { tools } = await server.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['who_am_i', 'sign_out', 'list_courses', 'create_coupon', 'upload_file']),
    );
    const createCoupon = tools.find((tool) => tool.name === 'create_coupon')!;
    expect(createCoupon.annotations?.readOnlyHint).toBeFalsy();
    expect(tools.find((tool) => tool.name === 'list_orders')!.annotations?.readOnlyHint).toBe(true);
    expect(approvals).toBe(0);
  });

  it('task 1: how is the school doing this month (school, orders, new members, analytics)', async () => {
    const school = await callOk('get_school');
    expect(school['name']).toBeTruthy();
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const revenue = await callOk('get_revenue_summary', { from, to });
    expect(revenue).toBeTypeOf('object');
    const orders = await callOk('list_orders', { created_after: `${from}T00:00:00Z`, state: 'paid', per_page: 50 });
    expect(orders['items'].every((order: { state: string }) => order.state === 'paid')).toBe(true);
    const members = await callOk('list_members', { created_after: `${from}T00:00:00Z` });
    expect(members['total']).toBeGreaterThanOrEqual(0);
    expect(approvals).toBeGreaterThanOrEqual(1);
  });

  it('task 2: enrol a new member in a course, without duplicates', async () => {
    const found = await callOk('list_members', { email: 'new.student@example.com' });
    expect(found['total']).toBe(0);
    const member = await callOk('create_member', { email: 'new.student@example.com', name: 'New Student' });
    const course = (await callOk('list_courses', { state: 'published', per_page: 1 }))['items'][0];
    const first = await callOk('create_enrollment', { course_id: course.id, member_id: member['id'] });
    const second = await callOk('create_enrollment', { course_id: course.id, member_id: member['id'] });
    expect(second['id']).toBe(first['id']);
    const enrolled = await callOk('list_enrollments', { course_id: course.id, member_id: member['id'] });
    expect(enrolled['total']).toBe(1);
  });

  it('task 4: create a 20%-off coupon and verify it by code', async () => {
    const course = (await callOk('list_courses', { per_page: 1 }))['items'][0];
    await callOk('create_coupon', {
      code: 'SPRING25',
      discount_type: 'percent',
      percent_off: 20,
      course_ids: [course.id],
      expires_at: new Date(Date.now() + 5 * 86_400_000).toISOString(),
      max_redemptions: 100,
    });
    const coupon = await callOk('get_coupon_by_code', { code: 'SPRING25' });
    expect(coupon['percent_off']).toBe(20);
  });

  it('task 5 API-07: draft a course, upload a cover whose URL is returned as data and never fetched, publish it', async () => {
    const course = await callOk('create_course', {
      title: 'Watercolour for beginners',
      description: 'From the outline.',
    });
    const section = await callOk('create_section', { course_id: course['id'], title: 'Getting started' });
    await callOk('create_lecture', {
      course_id: course['id'],
      section_id: section['id'],
      title: 'Brushes and paper',
      kind: 'text',
      content: 'Round brushes, cold-pressed paper.',
    });
    const upload = await callOk('upload_file', {
      file: {
        filename: 'cover.png',
        content_base64: Buffer.from('not really a png').toString('base64'),
        content_type: 'image/png',
      },
    });
    expect(String(upload['url'])).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(sandbox.countRequests(new URL(String(upload['url'])).pathname)).toBe(0);
    const dryRun = await callOk('update_course', { course_id: course['id'], state: 'published', dry_run: true });
    expect(dryRun['dry_run']).toBe(true);
    const published = await callOk('update_course', {
      course_id: course['id'],
      state: 'published',
      cover_image_url: upload['url'],
    });
    expect(published['course']?.['state'] ?? published['state']).toBe('published');
  });

  it('task 7: past-due subscriptions with their members', async () => {
    const pastDue = await callOk('list_subscriptions', { state: 'past_due' });
    expect(pastDue['items'].length).toBeGreaterThan(0);
    const member = await callOk('get_member', { member_id: pastDue['items'][0].member_id });
    expect(member['email']).toContain('@');
  });

  it('task 14: export form submissions', async () => {
    const form = (await callOk('list_forms'))['items'][0];
    const submissions = await callOk('list_form_submissions', { form_id: form.id });
    expect(submissions['total']).toBeGreaterThan(0);
  });

  it('task 15: who am I, with which scopes', async () => {
    const me = await callOk('who_am_i');
    expect(me['signedIn']).toBe(true);
    expect(me['user']?.['name']).toBeTruthy();
    expect(me['scopes']).toEqual(expect.arrayContaining(['coupons:write', 'orders:read']));
  });

  it('API-03 refuses a ".." path value before anything is sent', async () => {
    const result = await call('get_course', { course_id: '..' });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/course_id/);
  });

  it('answers arguments that do not fit the schema with a tool error, not a crash', async () => {
    const result = await call('list_orders', { per_page: 'many' });
    expect(result.isError).toBe(true);
  });

  it('signs out: both tokens revoked, and the next call signs in again', async () => {
    const out = await call('sign_out');
    expect(out.isError).toBeFalsy();
    const me = await callOk('who_am_i');
    expect(me['signedIn']).toBe(false);
    const before = approvals;
    await callOk('list_orders', { per_page: 1 });
    expect(approvals).toBe(before + 1);
  });
});
