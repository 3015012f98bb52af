/**
 * `school-mcp --hosted --demo --store redis://…` as a real process on a real redis-server with a
 * password: the MCP SDK's client signs a staff member in and calls who_am_i, and the grants are
 * in Redis.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { completeConsent, SANDBOX_STAFF } from '@school-mcp/sandbox';
import { CookieBrowser } from '../../tools/bench/cookie-browser.js';
import { MemoryOAuthProvider } from '../helpers/memory-oauth-provider.js';
import { MAIN_JS } from '../helpers/mcp-stdio.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { collectLines, type LineCollector } from '../helpers/stderr-lines.js';
import { allowAtSchoolMcp, CLIENT_REDIRECT, openConsent, returnFromSchool } from '../app/support/hosted-harness.js';

function textOf(result: unknown): string {
  return ((result as { content: { text?: string }[] }).content ?? []).map((item) => item.text ?? '').join('\n');
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describeWithRedis('school-mcp --hosted --demo --store redis://', () => {
  const password = randomBytes(16).toString('hex');
  let redis: RedisServer;
  let child: ChildProcess;
  let lines: LineCollector;
  let mcpUrl: URL;

  beforeAll(async () => {
    redis = await startRedisServer({ password });
    child = spawn(process.execPath, [MAIN_JS, '--hosted', '--demo', '--store', redis.url], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SCHOOL_MCP_STORE_KEY: '', SCHOOL_MCP_REDIS_PASSWORD: password },
    });
    lines = collectLines(child.stderr);
    mcpUrl = new URL(/MCP endpoint: +(\S+)/.exec(await lines.waitForLine(/MCP endpoint:/))![1]!);
    await lines.waitForLine(/sandbox school:/);
  });

  afterAll(async () => {
    if (child !== undefined) {
      const done = exited(child);
      child.kill('SIGTERM');
      await done;
    }
    await redis?.close();
  });

  it('HST-06 signs a staff member in and calls who_am_i with the grants in a password-protected Redis', async () => {
    const member = SANDBOX_STAFF[1]!;
    const provider = new MemoryOAuthProvider(CLIENT_REDIRECT, 'e2e agent on redis');
    const first = new Client({ name: 'hosted-redis-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await expect(first.connect(transport)).rejects.toThrow();
    const browser = new CookieBrowser();
    const { consentUrl, csrf } = await openConsent(browser, provider.authorizationUrl!);
    const callback = await completeConsent(await allowAtSchoolMcp(browser, consentUrl, csrf), 'allow', {
      user: member.sub,
    });
    const { url } = await returnFromSchool(browser, callback);
    await transport.finishAuth(url.searchParams);
    const client = new Client({ name: 'hosted-redis-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    try {
      expect(textOf(await client.callTool({ name: 'who_am_i', arguments: {} }))).toContain(member.name);
    } finally {
      await client.close();
    }
    const raw = createClient({ url: redis.url, password });
    raw.on('error', () => undefined);
    await raw.connect();
    try {
      const keys = await raw.keys('school-mcp:*');
      expect(new Set(keys.map((key) => key.split(':')[1])).size).toBeGreaterThan(2);
      for (const key of keys) expect((await raw.get(key)) ?? '').not.toContain(provider.accessToken!);
    } finally {
      raw.destroy();
    }
    expect(lines.stderr.join('\n')).not.toContain(password);
  });

  it('HST-06 refuses to start with the Redis password in the --store URL, without repeating it', async () => {
    const secret = randomBytes(8).toString('hex');
    const refused = spawn(
      process.execPath,
      [MAIN_JS, '--hosted', '--demo', '--store', `redis://:${secret}@127.0.0.1:${redis.port}/0`],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const stderr = collectLines(refused.stderr);
    const closed = new Promise<number | null>((resolve) => refused.once('close', (code) => resolve(code)));
    expect(await closed).not.toBe(0);
    const text = stderr.stderr.join('\n');
    expect(text).toMatch(/carries a user or password.*SCHOOL_MCP_REDIS_PASSWORD/);
    expect(text).toMatch(/CONFIG_INVALID/);
    expect(text).not.toContain(secret);
  });
});
