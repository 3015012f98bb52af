/**
 * Ending a person's sign-in ends every MCP grant of theirs, through the store: on every instance
 * of a shared Redis store, and for a sign-in that was under way when it ended.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeConsent, SANDBOX_STAFF } from '@school-mcp/sandbox';
import { CookieBrowser } from '../../tools/bench/cookie-browser.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import {
  allowAtSchoolMcp,
  authorizeUrl,
  callMcp,
  exchange,
  openConsent,
  pkce,
  registerMcpClient,
  returnFromSchool,
  signIn,
  startHosted,
  tokenRequest,
  type Hosted,
} from '../app/support/hosted-harness.js';

const [ada, grace] = [SANDBOX_STAFF[0]!, SANDBOX_STAFF[1]!];

/** A client of `user`'s, signed in: its registration and tokens. */
async function connected(hosted: Hosted, user: string) {
  const client = await registerMcpClient(hosted.base);
  const { code, verifier } = await signIn(hosted, client, user);
  const { body } = await exchange(hosted.base, client, code, verifier);
  return { client, access: String(body.access_token), refresh: String(body.refresh_token) };
}

/** RFC 7009 at school-mcp: revoking a refresh token ends the person's sign-in, as a sign-out does. */
async function revokeRefreshToken(base: string, clientId: string, token: string): Promise<void> {
  const revoked = await fetch(`${base}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, token_type_hint: 'refresh_token', client_id: clientId }),
  });
  expect(revoked.status).toBe(200);
}

describe('a sign-in under way when the person signs out elsewhere', () => {
  let hosted: Hosted;
  beforeAll(async () => {
    hosted = await startHosted();
  });
  afterAll(async () => {
    await hosted.close();
  });

  it("HOST-34 ends as access_denied when the sign-out lands between the school's answer and the code, and a sign-in after it works", async () => {
    const other = await connected(hosted, ada.sub);
    const client = await registerMcpClient(hosted.base);
    const browser = new CookieBrowser();
    const { challenge } = pkce();
    const { consentUrl, csrf } = await openConsent(browser, authorizeUrl(hosted.base, client, challenge));
    const callback = await completeConsent(await allowAtSchoolMcp(browser, consentUrl, csrf), 'allow', {
      user: ada.sub,
    });
    const answered = await browser.request(callback);
    expect(answered.status).toBe(303);
    const finish = new URL(answered.headers.get('location')!, hosted.base);
    expect(finish.pathname).toMatch(/^\/consent\/[A-Za-z0-9_-]+\/finish$/);

    await revokeRefreshToken(hosted.base, other.client.clientId, other.refresh);
    const { url } = await returnFromSchool(browser, finish);
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('code')).toBeNull();

    const again = await connected(hosted, ada.sub);
    expect((await callMcp(hosted.base, again.access)).status).toBe(200);
    expect((await callMcp(hosted.base, other.access)).status).toBe(401);
  });
});

describeWithRedis("a person's sign-out on two instances sharing Redis", () => {
  let redis: RedisServer;
  let hosted: Hosted;
  beforeAll(async () => {
    redis = await startRedisServer();
    hosted = await startHosted({ redisUrl: redis.url, instances: 2 });
  });
  afterAll(async () => {
    await hosted?.close();
    await redis?.close();
  });

  it("HOST-33 refuses on the other instance every token of the person's other clients, keeps another person's, and accepts a sign-in after it", async () => {
    const [first, second] = hosted.instances;
    const [leaving, staying, other] = [
      await connected(hosted, ada.sub),
      await connected(hosted, ada.sub),
      await connected(hosted, grace.sub),
    ];
    for (const token of [staying.access, other.access]) expect((await callMcp(second!.url, token)).status).toBe(200);

    await revokeRefreshToken(first!.url, leaving.client.clientId, leaving.refresh);
    const refused = await callMcp(second!.url, staying.access);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    const refresh = await tokenRequest(second!.url, {
      grant_type: 'refresh_token',
      refresh_token: staying.refresh,
      client_id: staying.client.clientId,
    });
    expect(refresh.body.error).toBe('invalid_grant');
    expect((await callMcp(second!.url, other.access)).status).toBe(200);

    const again = await connected(hosted, ada.sub);
    for (const instance of [first!, second!]) expect((await callMcp(instance.url, again.access)).status).toBe(200);
    expect((await callMcp(first!.url, staying.access)).status).toBe(401);
  });
});
