/**
 * Whose a hosted 2025-11-25 session is: one person through one client, against the real hosted
 * server and sandbox school on 127.0.0.1. It outlives the grant it was opened with (the person
 * signs out and in again through the same client), and is answered to nobody else: not to the same
 * person through another client, not to another person through the same client id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_STAFF } from '@school-mcp/sandbox';
import {
  exchange,
  registerMcpClient,
  signIn,
  startHosted,
  type Hosted,
  type McpClient,
} from '../app/support/hosted-harness.js';

const [ada, grace] = [SANDBOX_STAFF[0]!, SANDBOX_STAFF[1]!];

let hosted: Hosted;
beforeAll(async () => {
  hosted = await startHosted({ tools: true });
});
afterAll(async () => {
  await hosted.close();
});

/** An access token of `user` through `client`, after a sign-in of their own. */
async function tokenOf(client: McpClient, user: string): Promise<string> {
  const { code, verifier } = await signIn(hosted, client, user);
  return String((await exchange(hosted.base, client, code, verifier)).body.access_token);
}

function post(token: string, message: Record<string, unknown>, sessionId?: string): Promise<Response> {
  return fetch(`${hosted.base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
}

async function openSession(token: string): Promise<string> {
  const initialize = await post(token, {
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'session-owner', version: '1' } },
  });
  expect(initialize.status).toBe(200);
  await initialize.body?.cancel();
  const sessionId = initialize.headers.get('mcp-session-id')!;
  expect(sessionId).toBeTruthy();
  await (await post(token, { method: 'notifications/initialized' }, sessionId)).body?.cancel();
  return sessionId;
}

/** `who_am_i` on the session: the status, and the body's text. */
async function whoAmI(token: string, sessionId: string): Promise<{ status: number; text: string }> {
  const answer = await post(
    token,
    { id: 2, method: 'tools/call', params: { name: 'who_am_i', arguments: {} } },
    sessionId,
  );
  return { status: answer.status, text: await answer.text() };
}

describe('HOST-61 a 2025-11-25 session belongs to one person through one client', () => {
  it('HOST-61 continues with the tokens of a new sign-in through the same client after a sign-out, and answers nobody else', async () => {
    const adaClient = await registerMcpClient(hosted.base);
    const first = await tokenOf(adaClient, ada.sub);
    const sessionId = await openSession(first);
    expect((await whoAmI(first, sessionId)).text).toContain(ada.name);

    // Ada signs out on this session: her grant ends, so this client signs in again and gets a new one.
    const signOut = await post(
      first,
      { id: 3, method: 'tools/call', params: { name: 'sign_out', arguments: {} } },
      sessionId,
    );
    expect(await signOut.text()).toMatch(/Signed out/);
    expect((await post(first, { id: 4, method: 'ping' }, sessionId)).status).toBe(401);
    const second = await tokenOf(adaClient, ada.sub);
    const continued = await whoAmI(second, sessionId);
    expect(continued.status, continued.text).toBe(200);
    expect(continued.text).toContain(ada.name);

    // Ada through another client, and Grace through Ada's client id: the answer to an unknown session.
    const otherClient = await tokenOf(await registerMcpClient(hosted.base), ada.sub);
    const graceThroughSameClient = await tokenOf(adaClient, grace.sub);
    for (const token of [otherClient, graceThroughSameClient]) {
      const refused = await whoAmI(token, sessionId);
      expect(refused.status).toBe(404);
      expect(refused.text).not.toContain(ada.name);
    }
    // They did not end it either.
    expect((await whoAmI(second, sessionId)).text).toContain(ada.name);
  });
});
