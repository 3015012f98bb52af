import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHOOL_GRANTS } from '../../src/hosted/index.js';
import { SANDBOX_STAFF } from '../../src/sandbox/index.js';
import { exchange, registerMcpClient, signIn, startHosted, type Hosted } from './hosted-harness.js';

let hosted: Hosted;
beforeAll(async () => {
  hosted = await startHosted({ tools: true, schoolScopes: ['account:read', 'courses:read'] });
});
afterAll(async () => {
  await hosted.close();
});

interface Connected {
  readonly client: Client;
  readonly accessToken: string;
}

async function connectAs(user: string): Promise<Connected> {
  const registered = await registerMcpClient(hosted.base);
  const { code, verifier } = await signIn(hosted, registered, user);
  const tokens = await exchange(hosted.base, registered, code, verifier);
  const accessToken = String(tokens.body.access_token);
  const client = new Client({ name: 'hosted-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${hosted.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${accessToken}` } } }));
  return { client, accessToken };
}

function textOf(result: unknown): string {
  return ((result as { content: { type: string; text?: string }[] }).content ?? []).map((item) => item.text ?? '').join('\n');
}

describe('hosted mode: tools act as the caller', () => {
  it('HOST-14 gives three staff members at once each their own who_am_i, and one sign-out leaves the others working', async () => {
    const people = await Promise.all(SANDBOX_STAFF.slice(0, 3).map(async (member) => ({ member, connected: await connectAs(member.sub) })));
    for (const { member, connected } of people) {
      const tools = await connected.client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toContain('who_am_i');
      const text = textOf(await connected.client.callTool({ name: 'who_am_i', arguments: {} }));
      expect(text).toContain(member.name);
      for (const other of SANDBOX_STAFF.filter((staff) => staff.sub !== member.sub)) expect(text).not.toContain(other.name);
    }
    const courses = (await people[1]!.connected.client.callTool({ name: 'list_courses', arguments: {} })) as { isError?: boolean };
    expect(courses.isError).toBeFalsy();

    const [leaving, ...staying] = people;
    const signOut = await leaving!.connected.client.callTool({ name: 'sign_out', arguments: {} });
    expect(textOf(signOut)).toMatch(/Signed out/);
    expect(hosted.sandbox.countRequests('/api/oauth/revoke')).toBeGreaterThanOrEqual(1);
    expect(await hosted.store.read(SCHOOL_GRANTS, leaving!.member.sub)).toBeUndefined();
    expect(await hosted.store.read(SCHOOL_GRANTS, staying[0]!.member.sub)).toBeDefined();
    const after = await fetch(`${hosted.base}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${leaving!.connected.accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(after.status).toBe(401);
    for (const { member, connected } of staying) {
      expect(textOf(await connected.client.callTool({ name: 'who_am_i', arguments: {} }))).toContain(member.name);
    }
    await Promise.allSettled(people.map(({ connected }) => connected.client.close()));
  });

  it('HOST-14 answers a tool that needs a permission the person did not grant with an error naming it, for that person only', async () => {
    const alan = await connectAs(SANDBOX_STAFF[2]!.sub);
    const result = (await alan.client.callTool({ name: 'create_course', arguments: { title: 'Cryptanalysis' } })) as { isError?: boolean };
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/courses:write/);
    await alan.client.close();
  });
});
