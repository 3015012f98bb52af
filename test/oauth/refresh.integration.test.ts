/**
 * Refresh and revocation against the sandbox over real HTTP, with the session's clock moved
 * forward to expire tokens.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTokenStore } from '../../src/oauth/token-store.js';
import type { SignInSession } from '../../src/consent/index.js';
import { completeConsent, type RunningSandbox } from '@school-mcp/sandbox';
import { fakeBrowser, type FakeBrowser } from './support/fake-browser.js';
import { createHarness, READ_COURSES, recordingFetch, type Harness, type Recorder } from './support/harness.js';
import { join } from 'node:path';

const TOKEN = '/api/oauth/token';
const REVOKE = '/api/oauth/revoke';
const HOUR = 3600_000;

let harness: Harness;
let sandbox: RunningSandbox;
let clock: number;
let recorder: Recorder;
let browser: FakeBrowser;
let commitFault: Error | undefined;

beforeEach(async () => {
  harness = await createHarness();
  sandbox = await harness.sandbox({ autoApprove: true });
  clock = Date.now();
  recorder = recordingFetch();
  browser = fakeBrowser();
  commitFault = undefined;
});
afterEach(async () => {
  await harness.cleanup();
});

function session(): SignInSession {
  return harness.session({
    schoolUrl: new URL(sandbox.url),
    prompter: browser,
    fetch: recorder.fetch,
    now: () => clock,
    beforeStoreCommit: () => {
      if (commitFault) throw commitFault;
    },
  });
}

const refreshes = () => recorder.bodiesTo(TOKEN).filter((body) => body.get('grant_type') === 'refresh_token');
const storeOf = () =>
  createTokenStore({
    dir: join(harness.dir, 'store'),
    issuer: sandbox.issuer,
    logger: harness.logger,
    now: () => clock,
  });

describe('refresh', () => {
  it('RF-07 AZ-05 RF-03 refreshes ahead of expiry with the same resource, no scope, and saves the rotated token first', async () => {
    const one = session();
    const first = await one.accessToken(READ_COURSES);
    const before = (await storeOf().read()).tokens!;
    clock += HOUR - 30_000;
    const second = await one.accessToken(READ_COURSES);
    expect(second).not.toBe(first);
    const [body] = refreshes();
    expect(body!.get('refresh_token')).toBe(before.refreshToken);
    expect(body!.getAll('resource')).toEqual([sandbox.resource]);
    expect(body!.has('scope')).toBe(false);
    const after = (await storeOf().read()).tokens!;
    expect(after.accessToken).toBe(second);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(browser.prompts).toHaveLength(1);
  });

  it('RF-04 a school that does not rotate keeps the old refresh token', async () => {
    sandbox = await harness.sandbox({ autoApprove: true, faults: { disableRefreshRotation: true } });
    const one = session();
    await one.accessToken(READ_COURSES);
    const before = (await storeOf().read()).tokens!;
    clock += HOUR;
    await one.accessToken(READ_COURSES);
    expect((await storeOf().read()).tokens!.refreshToken).toBe(before.refreshToken);
  });

  it('RF-01 ten concurrent calls around expiry cause exactly one refresh', async () => {
    const one = session();
    await one.accessToken(READ_COURSES);
    clock += HOUR;
    const tokens = await Promise.all(Array.from({ length: 10 }, () => one.accessToken(READ_COURSES)));
    expect(new Set(tokens).size).toBe(1);
    expect(refreshes()).toHaveLength(1);
  });

  it('RF-02 a second session on the same store finds the refreshed tokens and does not refresh again', async () => {
    const one = session();
    await one.accessToken(READ_COURSES);
    clock += HOUR;
    const two = session();
    const [a, b] = await Promise.all([one.accessToken(READ_COURSES), two.accessToken(READ_COURSES)]);
    expect(a).toBe(b);
    expect(refreshes()).toHaveLength(1);
  });

  it('RF-06 RF-05 a reused refresh token ends in one new sign-in, without loops', async () => {
    const one = session();
    await one.accessToken(READ_COURSES);
    const stolen = await readFile(storeOf().path, 'utf8');
    clock += HOUR;
    await one.accessToken(READ_COURSES);
    // The rotated response was "lost": the old refresh token is back on disk.
    await writeFile(storeOf().path, stolen);
    clock += HOUR;
    const fresh = await one.accessToken(READ_COURSES);
    expect(fresh).toMatch(/\S+/);
    expect(refreshes()).toHaveLength(2);
    expect(recorder.bodiesTo(TOKEN).filter((body) => body.get('grant_type') === 'authorization_code')).toHaveLength(2);
    expect(browser.prompts).toHaveLength(2);
    expect((await storeOf().read()).client).toBeDefined();
  });

  it('RF-05 a 5xx or network failure keeps the tokens and reports a transient error, never a prompt', async () => {
    const one = session();
    await one.accessToken(READ_COURSES);
    const stored = (await storeOf().read()).tokens!;
    clock += HOUR;
    recorder.intercept = (call) =>
      call.url.endsWith(TOKEN) ? Response.json({ error: 'server_error' }, { status: 503 }) : undefined;
    await expect(one.accessToken(READ_COURSES)).rejects.toMatchObject({ code: 'OAUTH_SERVER_ERROR' });
    recorder.intercept = (call) => {
      if (call.url.endsWith(TOKEN)) throw new TypeError('fetch failed');
      return undefined;
    };
    await expect(one.accessToken(READ_COURSES)).rejects.toMatchObject({ code: 'OAUTH_NETWORK' });
    expect((await storeOf().read()).tokens).toEqual(stored);
    expect(browser.prompts).toHaveLength(1);
  });

  it('RF-03 a refresh whose rotated token cannot be saved fails with a storage error and no prompt', async () => {
    const one = session();
    await one.accessToken(READ_COURSES);
    const before = await readFile(storeOf().path, 'utf8');
    clock += HOUR;
    commitFault = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    await expect(one.accessToken(READ_COURSES)).rejects.toMatchObject({ code: 'OAUTH_STORE_WRITE_FAILED' });
    expect(await readFile(storeOf().path, 'utf8')).toBe(before);
    expect(browser.prompts).toHaveLength(1);
  });

  it('ERR-02 refreshAfterRejection refreshes once, and returns the newer token to a caller that was late', async () => {
    const one = session();
    const rejected = await one.accessToken(READ_COURSES);
    const [a, b] = await Promise.all([one.refreshAfterRejection(rejected), one.refreshAfterRejection(rejected)]);
    expect(a).toBe(b);
    expect(a).not.toBe(rejected);
    expect(await one.refreshAfterRejection(rejected)).toBe(a);
    expect(refreshes()).toHaveLength(1);
  });

  it('stepUp asks for the union of granted and new scopes, and the grant grows', async () => {
    const one = session();
    await one.accessToken(READ_COURSES);
    await one.stepUp(['coupons:write']);
    expect(browser.prompts[1]!.scopes).toEqual(['coupons:write', 'courses:read', 'openid', 'profile']);
    expect(browser.prompts[1]!.newScopes).toEqual(['coupons:write']);
    expect(one.grantedScopes()).toEqual(['coupons:write', 'courses:read', 'openid', 'profile']);
  });

  it('read-only mode refuses a write scope before any prompt', async () => {
    const one = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser, readOnly: true });
    await expect(
      one.accessToken({ scopeAlternatives: [['coupons:write']], requiredScopes: ['coupons:write'] }),
    ).rejects.toMatchObject({ code: 'OAUTH_READ_ONLY' });
    await expect(one.stepUp(['coupons:write'])).rejects.toMatchObject({ code: 'OAUTH_READ_ONLY' });
    expect(browser.prompts).toEqual([]);
  });

  it('AZ-08 read-only refuses a challenge for scopes no read operation accepts before any prompt, and asks for one a read accepts', async () => {
    const documentScopes = { readable: ['courses:read', 'orders:read'], upFront: ['courses:read'], readsWith: {} };
    const one = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser, readOnly: true, documentScopes });
    await one.accessToken(READ_COURSES);
    expect(browser.prompts).toHaveLength(1);
    await expect(one.stepUp(['admin', 'courses:delete', 'write:org'])).rejects.toMatchObject({
      code: 'OAUTH_READ_ONLY',
      message: expect.stringContaining('admin courses:delete write:org, which no read operation'),
    });
    expect(browser.prompts).toHaveLength(1);
    await one.stepUp(['orders:read']);
    expect(browser.prompts[1]!.scopes).toEqual(['courses:read', 'openid', 'orders:read', 'profile']);
  });
});

describe('code exchange', () => {
  it('TK-03 a lost code-exchange response is never retried; the next attempt starts over with a new state', async () => {
    recorder.intercept = (call) => {
      if (call.url.endsWith(TOKEN)) throw new TypeError('socket hang up');
      return undefined;
    };
    const one = session();
    await expect(one.accessToken(READ_COURSES)).rejects.toMatchObject({ code: 'OAUTH_NETWORK' });
    expect(recorder.bodiesTo(TOKEN)).toHaveLength(1);
    expect((await storeOf().read()).tokens).toBeUndefined();
    recorder.intercept = undefined;
    await expect(one.accessToken(READ_COURSES)).resolves.toMatch(/\S+/);
    const [first, second] = browser.prompts.map((prompt) => new URL(prompt.url).searchParams.get('state'));
    expect(first).not.toBe(second);
    expect(recorder.bodiesTo(TOKEN)[0]!.get('code')).not.toBe(recorder.bodiesTo(TOKEN)[1]!.get('code'));
  });

  it("CB-05 a code from another flow, delivered with this flow's state and iss, fails cleanly and stores nothing", async () => {
    const other = harness.session({
      schoolUrl: new URL(sandbox.url),
      prompter: fakeBrowser({ idle: true }),
      storeDir: join(harness.dir, 'other'),
    });
    const otherPending = other.accessToken({ ...READ_COURSES, waitMs: 50 }).catch(() => undefined);
    await otherPending;
    const injected = await completeConsent(other.pendingConsent()!.url, 'allow');
    const victim = harness.session({
      schoolUrl: new URL(sandbox.url),
      prompter: fakeBrowser({
        tamper: (callback) => callback.searchParams.set('code', injected.searchParams.get('code')!),
      }),
      fetch: recorder.fetch,
    });
    await expect(victim.accessToken(READ_COURSES)).rejects.toMatchObject({ code: 'OAUTH_TOKEN_EXCHANGE_FAILED' });
    expect((await storeOf().read()).tokens).toBeUndefined();
  });
});

describe('revocation', () => {
  it('RV-01 RV-02 revokes the refresh token first, then the access token, and forgets both', async () => {
    const one = session();
    const token = await one.accessToken(READ_COURSES);
    const stored = (await storeOf().read()).tokens!;
    const result = await one.revoke();
    expect(result.revoked).toBe(true);
    const bodies = recorder.bodiesTo(REVOKE);
    expect(bodies.map((body) => [body.get('token'), body.get('token_type_hint')])).toEqual([
      [stored.refreshToken, 'refresh_token'],
      [token, 'access_token'],
    ]);
    expect(bodies.every((body) => body.get('client_id') === stored.clientId)).toBe(true);
    expect((await storeOf().read()).tokens).toBeUndefined();
    expect((await one.status()).signedIn).toBe(false);
    // The school agrees: the old access token no longer reads the user.
    const userinfo = await fetch(`${sandbox.url}/api/oauth/userinfo`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(userinfo.status).toBe(401);
  });

  it('RV-03 an unreachable school: tokens are forgotten anyway, the user is told, the refresh token is kept aside', async () => {
    const one = session();
    await one.accessToken(READ_COURSES);
    recorder.intercept = (call) =>
      call.url.endsWith(REVOKE) ? Response.json({ error: 'temporarily_unavailable' }, { status: 503 }) : undefined;
    const result = await one.revoke();
    expect(result.revoked).toBe(false);
    expect(result.message).toMatch(/may stay valid/);
    const record = await storeOf().read();
    expect(record.tokens).toBeUndefined();
    expect(record.pendingRevocation?.map((item) => item.hint)).toEqual(['refresh_token']);
    recorder.intercept = undefined;
    expect((await one.revoke()).revoked).toBe(true);
    expect((await storeOf().read()).pendingRevocation).toBeUndefined();
  });

  it('says so when not signed in', async () => {
    expect(await session().revoke()).toEqual({ revoked: false, message: expect.stringMatching(/Not signed in/) });
  });
});
