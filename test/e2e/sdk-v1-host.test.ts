/**
 * The host most people run: the MCP TypeScript SDK 1.x client at its default options, which gives
 * up on a request after 60 s. A call that waits for consent answers "pending" within
 * `--consent-wait` (short here; 45 s by default, see test/config/config.test.ts) with the link and the
 * scopes in words, and once the played user approved, the next call runs in that same flow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeConsent, startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { MCP_TRANSPORTS } from '../helpers/mcp-server.js';
import { hasStoredTokens, startV1Server, type V1Server } from '../helpers/sdk-v1-client.js';

type Result = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

const textOf = (result: Result) => result.content.map((block) => block.text ?? '').join('\n');
const linkOf = (result: Result) => /(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/.exec(textOf(result))?.[1];

describe.each(MCP_TRANSPORTS)('the SDK 1.x client at its defaults over %s', (transport) => {
  let sandbox: RunningSandbox;
  let server: V1Server;

  beforeAll(async () => {
    sandbox = await startSandbox({ autoApprove: false });
    server = await startV1Server({
      transport,
      args: [
        '--school',
        sandbox.url,
        '--no-browser',
        '--toolsets',
        'coupons',
        '--consent-wait',
        '0.5',
        '--link-wait',
        '0.5',
      ],
    });
  });

  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });

  it('gets a pending result while consent waits, and the next call after approval succeeds in the same flow', async () => {
    const coupon = { code: `SDK1-${transport}`.toUpperCase(), discount_type: 'percent', percent_off: 15 };
    const pending = (await server.client.callTool({ name: 'create_coupon', arguments: coupon })) as Result;
    expect(pending.isError, textOf(pending)).toBe(true);
    expect(textOf(pending)).toContain('create_coupon has not run yet');
    expect(textOf(pending)).toContain('coupons:write (Write access to coupons)');
    const link = linkOf(pending);
    expect(link, textOf(pending)).toBeDefined();
    expect(sandbox.countRequests('/api/v1/coupons', 'POST')).toBe(0);

    await (await fetch(await completeConsent(link!, 'allow'))).text();
    // The school redirected back; the call after it runs once the code has been exchanged.
    await expect.poll(() => hasStoredTokens(server.configDir), { timeout: 90_000 }).toBe(true);
    const done = (await server.client.callTool({ name: 'create_coupon', arguments: coupon })) as Result;
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(done.structuredContent?.['code']).toBe(coupon.code);
    expect(sandbox.countRequests('/api/oauth/register', 'POST')).toBe(1);
  });
});
