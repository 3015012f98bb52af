/**
 * A school that fails for a moment: refresh is retried once after a transient failure and never
 * turns into a new sign-in; the code exchange is never retried; revocation honours `Retry-After`
 * once, and an unconfirmed revocation is retried when a session next starts. Real HTTP on
 * 127.0.0.1 against a mock school whose endpoints can be made to fail.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SignInSession } from '../../src/consent/index.js';
import { parseSchoolUrl } from '../../src/oauth/index.js';
import { discoverSchool } from '../../src/oauth/discovery.js';
import { clientConfiguration } from '../../src/oauth/registration.js';
import { retryDelayMs } from '../../src/oauth/retry-policy.js';
import { revokeAll } from '../../src/oauth/revocation.js';
import type { FetchLike } from '../../src/network/index.js';
import { createSchoolFetch } from '../../src/oauth/school-fetch.js';
import { createTokenStore } from '../../src/oauth/token-store.js';
import { createHarness, READ_COURSES, type Harness } from './support/harness.js';
import { approvingBrowser, startMockSchool, type MockSchool } from './support/mock-school.js';

const HOUR = 3600_000;

let harness: Harness;
let school: MockSchool;
let browser: ReturnType<typeof approvingBrowser>;
let clock: number;
beforeEach(async () => {
  harness = await createHarness();
  school = await startMockSchool();
  browser = approvingBrowser();
  clock = Date.now();
});
afterEach(async () => {
  await harness.cleanup();
  await school.close();
});

function session(overrides: { fetch?: FetchLike } = {}): SignInSession {
  return harness.session({ schoolUrl: new URL(school.base), prompter: browser, now: () => clock, ...overrides });
}

const storeOf = () =>
  createTokenStore({ dir: join(harness.dir, 'store'), issuer: school.base, logger: harness.logger, now: () => clock });
const refreshes = () => school.formsTo('token', 'refresh_token');

/** Fails the first `times` requests to one endpoint with `failure`, then lets them through. */
function failFirst(
  times: number,
  failure: ReturnType<NonNullable<MockSchool['override']['token']>>,
  grantType?: string,
) {
  let left = times;
  return (request: { form: URLSearchParams }) => {
    if (grantType && request.form.get('grant_type') !== grantType) return undefined;
    if (left <= 0) return undefined;
    left -= 1;
    return failure;
  };
}

describe('retry policy (pure)', () => {
  it('NET-04 waits as long as Retry-After asks (read in test/network/retry-after.test.ts), but not past the cap', () => {
    expect(retryDelayMs(2000, 0.5)).toBe(2000);
    expect(retryDelayMs(86_400_000, 0.5)).toBeUndefined();
    expect(retryDelayMs(undefined, 0)).toBe(500);
    expect(retryDelayMs(undefined, 1)).toBe(1000);
  });
});

describe('refresh after a transient failure', () => {
  it.each([
    ['500', { status: 500, body: { error: 'server_error' } }],
    ['502', { status: 502, body: { error: 'server_error' } }],
    ['503', { status: 503, body: { error: 'temporarily_unavailable' } }],
    ['a reset connection', 'reset' as const],
  ])('RF-05 NET-05 one retry after %s succeeds, without a new sign-in', async (_, failure) => {
    const one = session();
    const first = await one.accessToken(READ_COURSES);
    clock += HOUR;
    school.override.token = failFirst(1, failure, 'refresh_token');
    const second = await one.accessToken(READ_COURSES);
    expect(second).not.toBe(first);
    expect(refreshes()).toHaveLength(2);
    // The retry presents the same refresh token: the first attempt did not rotate it.
    expect(refreshes()[1]!.get('refresh_token')).toBe(refreshes()[0]!.get('refresh_token'));
    expect(browser.prompts).toHaveLength(1);
    expect((await storeOf().read()).tokens?.accessToken).toBe(second);
  });

  it('RF-05 NET-05 a timeout is retried once like any network failure', async () => {
    let timeouts = 1;
    const timingOut: FetchLike = async (url, init) => {
      if (
        url.endsWith('/token') &&
        init.body instanceof URLSearchParams &&
        init.body.get('grant_type') === 'refresh_token' &&
        timeouts-- > 0
      ) {
        throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
      }
      return fetch(url, init as RequestInit);
    };
    const one = session({ fetch: timingOut });
    const first = await one.accessToken(READ_COURSES);
    clock += HOUR;
    expect(await one.accessToken(READ_COURSES)).not.toBe(first);
    expect(refreshes()).toHaveLength(1);
    expect(timeouts).toBe(-1);
  });

  it('RF-05 NET-05 two transient failures: exactly one retry, the tokens are kept, no prompt', async () => {
    const one = session();
    await one.accessToken(READ_COURSES);
    const stored = (await storeOf().read()).tokens;
    clock += HOUR;
    school.override.token = failFirst(5, { status: 503, body: { error: 'temporarily_unavailable' } }, 'refresh_token');
    await expect(one.accessToken(READ_COURSES)).rejects.toMatchObject({ code: 'OAUTH_SERVER_ERROR' });
    expect(refreshes()).toHaveLength(2);
    expect((await storeOf().read()).tokens).toEqual(stored);
    expect(browser.prompts).toHaveLength(1);
  });

  it('RF-05 invalid_grant is not retried: the tokens are dropped once, the registration kept, one new sign-in', async () => {
    const one = session();
    await one.accessToken(READ_COURSES);
    clock += HOUR;
    school.override.token = failFirst(1, { status: 400, body: { error: 'invalid_grant' } }, 'refresh_token');
    await expect(one.accessToken(READ_COURSES)).resolves.toMatch(/^AT-CANARY-/);
    expect(refreshes()).toHaveLength(1);
    expect(browser.prompts).toHaveLength(2);
    expect(school.formsTo('register')).toHaveLength(1);
  });

  it('TK-03 NET-05 a 503 on the code exchange is never retried', async () => {
    school.override.token = failFirst(
      1,
      { status: 503, body: { error: 'temporarily_unavailable' } },
      'authorization_code',
    );
    await expect(session().accessToken(READ_COURSES)).rejects.toMatchObject({ code: 'OAUTH_SERVER_ERROR' });
    expect(school.formsTo('token', 'authorization_code')).toHaveLength(1);
    expect((await storeOf().read()).tokens).toBeUndefined();
  });
});

describe('revocation', () => {
  async function revocationContext() {
    const target = parseSchoolUrl(school.base);
    const fetch = createSchoolFetch();
    const metadata = await discoverSchool(target, fetch, harness.logger);
    const config = clientConfiguration(
      { target, metadata, fetch },
      { kind: 'dynamic', clientId: 'mock-client', redirectUris: [], registeredAt: 0 },
    );
    const waits: number[] = [];
    const options = { logger: harness.logger, sleep: async (ms: number) => void waits.push(ms), now: () => 0 };
    return { config, waits, options };
  }
  const refreshItem = { token: 'RT-CANARY-9', hint: 'refresh_token' as const, clientId: 'mock-client' };

  it('RV-02 NET-05 a 503 with Retry-After: 2 is retried once after 2 s, then reported as not confirmed', async () => {
    const { config, waits, options } = await revocationContext();
    school.override.revoke = () => ({
      status: 503,
      body: { error: 'temporarily_unavailable' },
      headers: { 'retry-after': '2' },
    });
    const outcome = await revokeAll([refreshItem], () => config, options);
    expect(waits).toEqual([2000]);
    expect(school.formsTo('revoke')).toHaveLength(2);
    expect(outcome).toEqual({ confirmed: [], unconfirmed: [refreshItem] });
  });

  it('RV-02 a 503 then a 200 is confirmed', async () => {
    const { config, waits, options } = await revocationContext();
    school.override.revoke = failFirst(1, {
      status: 503,
      body: { error: 'temporarily_unavailable' },
      headers: { 'retry-after': '2' },
    });
    expect(await revokeAll([refreshItem], () => config, options)).toEqual({
      confirmed: [refreshItem],
      unconfirmed: [],
    });
    expect(waits).toEqual([2000]);
  });

  it('RV-02 NET-04 a Retry-After of a day is not waited for', async () => {
    const { config, waits, options } = await revocationContext();
    school.override.revoke = () => ({
      status: 503,
      body: { error: 'temporarily_unavailable' },
      headers: { 'retry-after': '86400' },
    });
    expect((await revokeAll([refreshItem], () => config, options)).unconfirmed).toEqual([refreshItem]);
    expect(waits).toEqual([]);
    expect(school.formsTo('revoke')).toHaveLength(1);
  });

  it('RV-02 400 unsupported_token_type for the access token: logout still succeeds, the refresh token was revoked', async () => {
    const one = session();
    await one.accessToken(READ_COURSES);
    const stored = (await storeOf().read()).tokens!;
    school.override.revoke = (request) =>
      request.form.get('token_type_hint') === 'access_token'
        ? { status: 400, body: { error: 'unsupported_token_type' } }
        : undefined;
    const result = await one.revoke();
    expect(result).toMatchObject({ revoked: true, message: expect.stringMatching(/^Signed out/) });
    expect(school.formsTo('revoke').map((form) => [form.get('token'), form.get('token_type_hint')])).toEqual([
      [stored.refreshToken, 'refresh_token'],
      [stored.accessToken, 'access_token'],
    ]);
    expect((await storeOf().read()).pendingRevocation).toBeUndefined();
  });

  it('RV-03 an unconfirmed revocation is kept aside, never used, and retried when the next session starts', async () => {
    const one = session();
    await one.accessToken(READ_COURSES);
    const stored = (await storeOf().read()).tokens!;
    school.override.revoke = () => ({
      status: 503,
      body: { error: 'temporarily_unavailable' },
      headers: { 'retry-after': '0' },
    });
    const result = await one.revoke();
    expect(result.revoked).toBe(false);
    expect(result.message).toMatch(/revocation not confirmed.*may stay valid.*next time school-mcp starts/);
    expect((await storeOf().read()).pendingRevocation).toEqual([
      { token: stored.refreshToken, hint: 'refresh_token', clientId: stored.clientId },
    ]);
    await one.close();

    school.override.revoke = undefined;
    const before = school.formsTo('revoke').length;
    const next = session();
    // Starting: the first contact with the school. No sign-out is asked for.
    expect((await next.status()).signedIn).toBe(false);
    await next.close();
    const retried = school.formsTo('revoke').slice(before);
    expect(retried.map((form) => [form.get('token'), form.get('token_type_hint')])).toEqual([
      [stored.refreshToken, 'refresh_token'],
    ]);
    expect((await storeOf().read()).pendingRevocation).toBeUndefined();
    // Kept aside means never presented as a grant.
    expect(refreshes().some((form) => form.get('refresh_token') === stored.refreshToken)).toBe(false);
  });
});
