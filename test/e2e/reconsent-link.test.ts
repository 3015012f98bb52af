/**
 * The last way to reach the user: no URL elicitation and no browser. The call answers at once
 * with the link and the scope in words (the user can only approve once they see it), the flow
 * stays open, and calling again after approval runs the operation in that same flow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeConsent, startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { MCP_TRANSPORTS, startMcpServer, type McpTestServer } from '../helpers/mcp-server.js';

type Result = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  isError?: boolean;
};

const textOf = (result: Result) => result.content.map((block) => block.text ?? '').join('\n');
const linkOf = (result: Result) => /(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/.exec(textOf(result))?.[1];

describe.each(MCP_TRANSPORTS)('the approval link in the tool result over %s', (transport) => {
  let sandbox: RunningSandbox;
  let server: McpTestServer;

  beforeAll(async () => {
    sandbox = await startSandbox({ autoApprove: false });
    // --consent-wait is long on purpose: the link channel must not wait for it.
    server = await startMcpServer({
      transport,
      args: ['--school', sandbox.url, '--no-browser', '--toolsets', 'coupons', '--consent-wait', '600'],
    });
  });

  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });

  const call = async (args: Record<string, unknown>) =>
    (await server.client.callTool({ name: 'create_coupon', arguments: args })) as Result;

  it('answers at once with the link and the words of the scope, reuses the flow, and runs the call once approved', async () => {
    const coupon = { code: `LINK-${transport}`.toUpperCase(), discount_type: 'percent', percent_off: 10 };
    const first = await call(coupon);
    const link = linkOf(first);
    expect(link, textOf(first)).toBeDefined();
    expect(textOf(first)).toContain('coupons:write (Write access to coupons)');
    expect(textOf(first)).toMatch(/call create_coupon again/);
    expect(sandbox.countRequests('/api/v1/coupons', 'POST')).toBe(0);

    // Before the user approves, a second call shows the same link: no second flow, no second registration.
    const again = await call(coupon);
    expect(linkOf(again)).toBe(link);
    expect(sandbox.countRequests('/api/oauth/register', 'POST')).toBe(1);

    await (await fetch(await completeConsent(link!, 'allow'))).text();
    const done = await call(coupon);
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(done.structuredContent?.['code']).toBe(coupon.code);
  });
});
