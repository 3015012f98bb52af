import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { readdir } from 'node:fs/promises';
import { createClient } from '@redis/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SANDBOX_STAFF } from '@school-mcp/sandbox';
import { describeWithRedis, startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { exchange, registerMcpClient, signIn, startHosted, type Hosted } from '../app/support/hosted-harness.js';

function textOf(result: unknown): string {
  return ((result as { content: { type: string; text?: string }[] }).content ?? [])
    .map((item) => item.text ?? '')
    .join('\n');
}

describeWithRedis('hosted mode on the Redis grant store', () => {
  let redis: RedisServer;
  let hosted: Hosted;
  beforeAll(async () => {
    redis = await startRedisServer();
    hosted = await startHosted({ tools: true, schoolScopes: ['account:read', 'courses:read'], redisUrl: redis.url });
  });
  afterAll(async () => {
    await hosted?.close();
    await redis?.close();
  });

  it('HST-07 signs a staff member in and answers who_am_i with every grant, client and token in Redis, sealed, and nothing on disk', async () => {
    const member = SANDBOX_STAFF[0]!;
    const registered = await registerMcpClient(hosted.base);
    const { code, verifier } = await signIn(hosted, registered, member.sub);
    const tokens = await exchange(hosted.base, registered, code, verifier);
    expect(tokens.status).toBe(200);
    const accessToken = String(tokens.body.access_token);
    const client = new Client({ name: 'hosted-redis-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${hosted.base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
      }),
    );
    try {
      expect(textOf(await client.callTool({ name: 'who_am_i', arguments: {} }))).toContain(member.name);
    } finally {
      await client.close();
    }

    const raw = createClient({ url: redis.url });
    raw.on('error', () => undefined);
    await raw.connect();
    try {
      const keys = await raw.keys('*');
      const namespaces = new Set(keys.map((key) => key.split(':')[1]));
      expect(keys.length).toBeGreaterThan(3);
      expect(keys.every((key) => key.startsWith('school-mcp:'))).toBe(true);
      expect(namespaces.size).toBeGreaterThan(2);
      for (const key of keys) {
        expect(key).not.toContain(member.sub);
        expect(key).not.toContain(registered.clientId);
        const value = (await raw.get(key)) ?? '';
        expect(value).not.toContain(accessToken);
        expect(value).not.toContain(member.sub);
        expect(value).not.toContain(member.name);
      }
    } finally {
      raw.destroy();
    }
    expect(await readdir(hosted.storeDir)).toEqual([]);
  });
});
