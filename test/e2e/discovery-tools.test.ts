/**
 * Dynamic mode end to end: with only the discovery tools listed, an agent finds an operation,
 * reads its schema and calls it, with the same sign-in and the same executor as direct tools.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeConsent, startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { linkIn, startStdioServer, type StdioServer } from '../helpers/mcp-stdio.js';

type Result = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  isError?: boolean;
};

let sandbox: RunningSandbox;
let server: StdioServer;

beforeAll(async () => {
  sandbox = await startSandbox({ autoApprove: true });
  // The played user approves from the server's log, so calls wait for the approval (--link-wait).
  server = await startStdioServer({
    args: [
      '--school',
      sandbox.url,
      '--no-browser',
      '--consent-wait',
      '60',
      '--link-wait',
      '60',
      '--toolsets',
      'dynamic',
    ],
  });
});

afterAll(async () => {
  await server?.close();
  await sandbox?.close();
});

const call = async (name: string, args: Record<string, unknown>) =>
  (await server.client.callTool({ name, arguments: args })) as Result;

describe('--toolsets dynamic', () => {
  it('API-09 lists the discovery tools and the account tools only, the read call tool read-only and the other destructive', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'call_operation',
      'call_read_operation',
      'describe_operation',
      'search_operations',
      'sign_out',
      'who_am_i',
    ]);
    const annotations = new Map(tools.map((tool) => [tool.name, tool.annotations]));
    expect(annotations.get('call_read_operation')).toMatchObject({ readOnlyHint: true });
    expect(annotations.get('call_read_operation')?.destructiveHint).toBeUndefined();
    expect(annotations.get('call_operation')).toMatchObject({ destructiveHint: true });
  });

  it('API-09 refuses a change through the read call tool before anything is sent, and names the tool for it', async () => {
    const before = sandbox.countRequests('/api/v1/coupons');
    const result = await call('call_read_operation', {
      name: 'create_coupon',
      arguments: { code: 'NOPE10', discount_type: 'percent', percent_off: 10 },
    });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain(
      'create_coupon changes data, and call_read_operation runs only reads: run it with call_operation',
    );
    expect(sandbox.countRequests('/api/v1/coupons')).toBe(before);
  });

  it('finds, describes and calls an operation', async () => {
    const found = await call('search_operations', { query: 'list subscriptions past due' });
    const results = found.structuredContent!['results'];
    expect(results[0]).toMatchObject({ name: 'list_subscriptions', toolset: 'subscriptions', readOnly: true });
    expect(results[0].arguments).toEqual(
      expect.arrayContaining(['state: active|incomplete|trialing|past_due|canceled|expired[]', 'per_page: integer']),
    );
    expect(results[0]).not.toHaveProperty('requiredScopes');

    const described = await call('describe_operation', { name: 'list_subscriptions' });
    expect(described.structuredContent!['inputSchema']['properties']).toHaveProperty('state');
    expect(described.structuredContent!['requiredScopes']).toEqual(['subscriptions:read']);
    expect(described.structuredContent!['outputSchema']['properties']).toHaveProperty('items');

    const answer = call('call_read_operation', {
      name: 'list_subscriptions',
      arguments: { state: 'past_due', per_page: 5 },
    });
    const link = linkIn(await server.waitForLine(/\/oauth\/authorize\?/));
    await (await fetch(await completeConsent(link, 'allow'))).text();
    const result = await answer;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent!['items'].every((item: { state: string }) => item.state === 'past_due')).toBe(true);
  });

  it("answers a search with its results and the other operations of the first one's toolset, and when nothing matches, with the closest operations or the toolsets to try", async () => {
    const found = await call('search_operations', { query: 'cancel subscription' });
    expect(Object.keys(found.structuredContent!)).toEqual(['results', 'sameToolset']);
    expect(found.structuredContent!['results'][0]).toMatchObject({ name: 'cancel_subscription', readOnly: false });
    const names = [...found.structuredContent!['results'], ...found.structuredContent!['sameToolset']].map(
      (operation: { name: string }) => operation.name,
    );
    expect(names).toEqual(expect.arrayContaining(['list_subscriptions', 'get_subscription']));
    expect(new Set(names).size).toBe(names.length);

    const nothing = await call('search_operations', { query: 'delete event' });
    expect(nothing.isError).toBeFalsy();
    expect(nothing.structuredContent!['results']).toEqual([]);
    expect(nothing.structuredContent!['nothingMatches']).toMatch(/^No operation does what "delete event" asks/);
    expect(nothing.structuredContent!['closest'].map((operation: { name: string }) => operation.name)).toContain(
      'update_event',
    );
    const unknown = await call('search_operations', { query: 'zebra' });
    expect(unknown.structuredContent!['nothingMatches']).toMatch(/^No operation mentions "zebra"/);
    expect(unknown.structuredContent!['toolsets']).toContain('events');
  });

  it('refuses arguments that do not fit the operation, before anything is sent', async () => {
    const before = sandbox.countRequests('/api/v1/subscriptions');
    const result = await call('call_operation', { name: 'list_subscriptions', arguments: { state: 'sleeping' } });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(
      /^Input validation error: Invalid arguments for tool list_subscriptions: "state\/0" must be one of .*describe_operation/s,
    );
    expect(sandbox.countRequests('/api/v1/subscriptions')).toBe(before);
  });

  it('names the search tool when the operation is unknown', async () => {
    const result = await call('call_operation', { name: 'drop_database' });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain('search_operations');
  });
});
