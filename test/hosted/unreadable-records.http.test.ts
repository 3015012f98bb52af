/**
 * Records sealed with a key that is no longer given, met by a request to a hosted server: the
 * person is treated as signed out (their school grant, their access token), never a server error.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDirectoryStore, parseStoreKeys } from '../../src/grant-store/index.js';
import { SCHOOL_GRANTS } from '../../src/hosted/index.js';
import { SANDBOX_STAFF } from '@school-mcp/sandbox';
import {
  callMcp,
  exchange,
  registerMcpClient,
  signIn,
  startHosted,
  type Hosted,
} from '../app/support/hosted-harness.js';

let hosted: Hosted;
beforeAll(async () => {
  hosted = await startHosted({ tools: true, schoolScopes: ['account:read', 'courses:read'] });
});
afterAll(async () => {
  await hosted.close();
});

function textOf(result: unknown): string {
  return ((result as { content: { text?: string }[] }).content ?? []).map((item) => item.text ?? '').join('\n');
}

/** The same store directory opened under a key the server was not given: what it writes, the server cannot open. */
async function storeUnderLostKey() {
  const keys = parseStoreKeys(randomBytes(32).toString('base64'));
  if (!keys.ok) throw new Error(keys.reason);
  return openDirectoryStore({
    dir: join(hosted.storeDir, 'store'),
    keyring: keys.keyring,
    logger: { warn: () => undefined },
  });
}

async function connectAs(user: string): Promise<{ client: Client; accessToken: string }> {
  const registered = await registerMcpClient(hosted.base);
  const { code, verifier } = await signIn(hosted, registered, user);
  const accessToken = String((await exchange(hosted.base, registered, code, verifier)).body.access_token);
  const client = new Client({ name: 'unreadable-records', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${hosted.base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
    }),
  );
  return { client, accessToken };
}

describe('hosted mode meeting records whose key is gone', () => {
  it('ST-10 asks a person whose school grant no key given opens to connect again, in who_am_i as in a tool call, and keeps the record', async () => {
    const member = SANDBOX_STAFF[0]!;
    const connected = await connectAs(member.sub);
    try {
      expect(textOf(await connected.client.callTool({ name: 'who_am_i', arguments: {} }))).toContain(member.name);
      await (
        await storeUnderLostKey()
      ).write(SCHOOL_GRANTS, member.sub, { sealed: 'under a key the server does not have' });
      const who = await connected.client.callTool({ name: 'who_am_i', arguments: {} });
      expect(who.isError).toBeFalsy();
      expect(textOf(who)).toMatch(/^Not signed in to the school/);
      const call = await connected.client.callTool({ name: 'list_courses', arguments: {} });
      expect(call.isError).toBe(true);
      expect(textOf(call)).toMatch(/OAUTH_SIGN_IN_REQUIRED[\s\S]*connect the application to school-mcp again/);
      expect(
        hosted.logLines.filter((line) => /read as absent/.test(line) && line.includes(`namespace="${SCHOOL_GRANTS}"`)),
      ).toHaveLength(1);
      await expect(hosted.store.read(SCHOOL_GRANTS, member.sub)).rejects.toMatchObject({
        code: 'STORE_RECORD_UNREADABLE',
      });
    } finally {
      await connected.client.close();
    }
  });

  it('ST-10 answers 401 invalid_token with the challenge to an access token no key given opens', async () => {
    const { client, accessToken } = await connectAs(SANDBOX_STAFF[1]!.sub);
    await client.close();
    expect((await callMcp(hosted.base, accessToken)).status).not.toBe(401);
    const found = await hosted.store.read('oidc-access-token', accessToken);
    await (await storeUnderLostKey()).write('oidc-access-token', accessToken, found!);
    const answer = await callMcp(hosted.base, accessToken);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token".*resource_metadata=/);
  });
});
