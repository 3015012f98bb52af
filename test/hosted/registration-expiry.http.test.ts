/**
 * Registered clients that nobody uses are forgotten; clients that are used stay as long as their
 * tokens. Against the real hosted server and sandbox school on 127.0.0.1, with a short expiry.
 */
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_STAFF } from '@school-mcp/sandbox';
import { CookieBrowser } from '../../tools/bench/cookie-browser.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import {
  authorizeUrl,
  exchange,
  pkce,
  registerMcpClient,
  signIn,
  startHosted,
  tokenRequest,
  type Hosted,
} from '../app/support/hosted-harness.js';

const UNUSED_SECONDS = 2;
/** Forgets unused clients at once; a sign-in there could outlast the expiry on a busy machine. */
let hosted: Hosted;
/** Keeps unused clients long enough for any sign-in, so that what keeps a used one is the token. */
let patient: Hosted;
beforeAll(async () => {
  [hosted, patient] = await Promise.all([
    startHosted({ registration: { unusedSeconds: UNUSED_SECONDS } }),
    startHosted({ registration: { unusedSeconds: 600 } }),
  ]);
});
afterAll(async () => {
  await Promise.all([hosted?.close(), patient?.close()]);
});

/** Polls `condition` every 100 ms until it holds; fails after `limitMs`. */
async function eventually(condition: () => Promise<boolean>, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('HOST-43 registrations expire unless used', () => {
  it('HOST-43 forgets a client that never got a token', async () => {
    const unused = await registerMcpClient(hosted.base);
    await eventually(async () => {
      const answer = await new CookieBrowser().request(authorizeUrl(hosted.base, unused, pkce().challenge));
      return answer.status === 400 && (await answer.text()).includes('invalid_client');
    });
    expect(await hosted.store.read('oidc-client', unused.clientId)).toBeUndefined();
  });

  it('HOST-43 keeps a client that got a token for as long as its refresh token', async () => {
    const used = await registerMcpClient(patient.base);
    const registered = (await patient.store.read('oidc-client', used.clientId)) as { expiresAt?: number };
    expect(registered.expiresAt).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 600);
    const { code, verifier } = await signIn(patient, used, SANDBOX_STAFF[0]!.sub);
    const tokens = await exchange(patient.base, used, code, verifier);
    expect(tokens.status).toBe(200);
    const kept = (await patient.store.read('oidc-client', used.clientId)) as { expiresAt?: number };
    // The engine's refresh tokens last 30 days; the client a day more.
    expect(kept.expiresAt).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 30 * 24 * 3600);
    const refreshed = await tokenRequest(patient.base, {
      grant_type: 'refresh_token',
      refresh_token: String(tokens.body.refresh_token),
      client_id: used.clientId,
    });
    expect(refreshed.status).toBe(200);
  });
});

describeWithRedis('HOST-43 registrations on the Redis store', () => {
  let redis: RedisServer;
  let onRedis: Hosted;
  beforeAll(async () => {
    redis = await startRedisServer();
    onRedis = await startHosted({ redisUrl: redis.url });
  });
  afterAll(async () => {
    await onRedis?.close();
    await redis?.close();
  });

  it('HOST-43 gives every registration a TTL in Redis (a day by default), so none stays for ever', async () => {
    const raw = createClient({ url: redis.url });
    raw.on('error', () => undefined);
    await raw.connect();
    try {
      for (let index = 0; index < 3; index += 1) await registerMcpClient(onRedis.base);
      const keys = await raw.keys('school-mcp:oidc-client:*');
      expect(keys).toHaveLength(3);
      for (const key of keys) {
        const ttl = await raw.ttl(key);
        expect(ttl).toBeGreaterThan(24 * 3600 - 120);
        expect(ttl).toBeLessThanOrEqual(24 * 3600);
      }
    } finally {
      raw.destroy();
    }
  });
});
