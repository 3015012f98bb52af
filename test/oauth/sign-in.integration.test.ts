/**
 * The whole sign-in against the sandbox school over real HTTP: discovery, registration, consent
 * through a fake browser, code exchange, and every way it must refuse to go on.
 */
import { createServer, type Server } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSchoolUrl, pendingConsentOf } from '../../src/oauth/index.js';
import { discoverSchool } from '../../src/oauth/discovery.js';
import { registerClient } from '../../src/oauth/registration.js';
import { createSchoolFetch } from '../../src/oauth/school-fetch.js';
import { fakeBrowser } from './support/fake-browser.js';
import { createHarness, READ_COURSES, recordingFetch, until, type Harness } from './support/harness.js';

let harness: Harness;
beforeEach(async () => {
  harness = await createHarness();
});
afterEach(async () => {
  await harness.cleanup();
});

const TOKEN = '/api/oauth/token';
const REGISTER = '/api/oauth/register';

describe('sign-in against the sandbox', () => {
  it('signs in with least privilege and returns a token the school accepts', async () => {
    const sandbox = await harness.sandbox({ autoApprove: true });
    const browser = fakeBrowser();
    const session = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser });

    const token = await session.accessToken(READ_COURSES);

    const status = await session.status();
    expect(status).toMatchObject({
      issuer: sandbox.issuer,
      signedIn: true,
      scopes: ['courses:read', 'openid', 'profile'],
    });
    expect(status.user?.sub).toBeTruthy();
    expect(sandbox.countRequests(REGISTER, 'POST')).toBe(1);
    expect(sandbox.countRequests(TOKEN, 'POST')).toBe(1);
    expect(browser.prompts).toHaveLength(1);
    expect(browser.prompts[0]!.newScopes).toEqual(['courses:read', 'openid', 'profile']);
    expect(browser.deliveries).toEqual([200]);
    expect(await session.accessToken(READ_COURSES)).toBe(token);
    expect(browser.prompts).toHaveLength(1);
  });

  it('RG-01 LB-02 AZ-01 AZ-04 AZ-05 TK-01 the same redirect URI and resource go everywhere, with PKCE S256', async () => {
    const sandbox = await harness.sandbox({ autoApprove: true });
    const recorder = recordingFetch();
    const browser = fakeBrowser();
    const session = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser, fetch: recorder.fetch });
    await session.accessToken(READ_COURSES);

    const registration = JSON.parse(recorder.calls.find((call) => call.url.endsWith(REGISTER))!.body) as Record<
      string,
      unknown
    >;
    const redirectUri = (registration.redirect_uris as string[])[0]!;
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:[1-9][0-9]{0,4}\/callback$/);
    expect(registration).toMatchObject({
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    expect(registration).not.toHaveProperty('client_secret');

    const authorization = new URL(browser.prompts[0]!.url);
    expect(authorization.searchParams.get('redirect_uri')).toBe(redirectUri);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorization.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorization.searchParams.getAll('resource')).toEqual([sandbox.resource]);
    expect(authorization.searchParams.get('response_type')).toBe('code');

    const [exchange] = recorder.bodiesTo(TOKEN);
    expect(exchange!.get('grant_type')).toBe('authorization_code');
    expect(exchange!.get('redirect_uri')).toBe(redirectUri);
    expect(exchange!.getAll('resource')).toEqual([sandbox.resource]);
    expect(exchange!.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(recorder.calls.find((call) => call.url.endsWith(TOKEN))!.headers).not.toHaveProperty('authorization');
  });

  it('CB-04 a denial is OAUTH_ACCESS_DENIED; nothing is exchanged or stored', async () => {
    const sandbox = await harness.sandbox();
    const browser = fakeBrowser({ decision: 'deny' });
    const session = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser });
    await expect(session.accessToken(READ_COURSES)).rejects.toMatchObject({ code: 'OAUTH_ACCESS_DENIED' });
    expect(sandbox.countRequests(TOKEN)).toBe(0);
    expect(browser.prompts).toHaveLength(1);
    expect((await session.status()).signedIn).toBe(false);
  });

  it('LB-05 AZ-02 a consent timeout closes the listener; the next attempt uses a fresh state and verifier', async () => {
    const sandbox = await harness.sandbox({ autoApprove: true });
    const idle = fakeBrowser({ idle: true });
    const session = harness.session({ schoolUrl: new URL(sandbox.url), prompter: idle, consentTimeoutMs: 300 });
    await expect(session.accessToken(READ_COURSES)).rejects.toMatchObject({ code: 'OAUTH_CONSENT_TIMEOUT' });
    const late = new URL(idle.prompts[0]!.url);
    const redirect = new URL(late.searchParams.get('redirect_uri')!);
    await expect(fetch(redirect)).rejects.toThrow();
    expect(sandbox.countRequests(TOKEN)).toBe(0);

    const second = await session.accessToken(READ_COURSES).catch((error: unknown) => error);
    expect(second).toMatchObject({ code: 'OAUTH_CONSENT_TIMEOUT' });
    const again = new URL(idle.prompts[1]!.url);
    expect(again.searchParams.get('state')).not.toBe(late.searchParams.get('state'));
    expect(again.searchParams.get('code_challenge')).not.toBe(late.searchParams.get('code_challenge'));
  });

  it('a wait shorter than the flow returns OAUTH_CONSENT_PENDING with the URL; the next call joins the same flow', async () => {
    const sandbox = await harness.sandbox({ autoApprove: true });
    const idle = fakeBrowser({ idle: true });
    const session = harness.session({ schoolUrl: new URL(sandbox.url), prompter: idle });
    const error = await session.accessToken({ ...READ_COURSES, waitMs: 100 }).catch((caught: unknown) => caught);
    const pending = pendingConsentOf(error);
    expect(pending?.url).toBe(idle.prompts[0]!.url);
    expect(session.pendingConsent()?.url).toBe(pending?.url);

    const waiting = session.accessToken(READ_COURSES);
    await fakeBrowser().present(idle.prompts[0]!);
    await expect(waiting).resolves.toMatch(/\S+/);
    expect(idle.prompts).toHaveLength(1);
    expect(sandbox.countRequests(REGISTER, 'POST')).toBe(1);
    expect(session.pendingConsent()).toBeUndefined();
  });

  it.each([
    ['a wrong iss', { wrongIssOnRedirect: 'http://127.0.0.1:1' }],
    ['a missing iss', { omitIssOnRedirect: true }],
  ])('CB-01 CB-05 %s on the redirect is refused and the code is never exchanged', async (_, faults) => {
    const sandbox = await harness.sandbox({ autoApprove: true, faults });
    const session = harness.session({ schoolUrl: new URL(sandbox.url), prompter: fakeBrowser() });
    await expect(session.accessToken(READ_COURSES)).rejects.toMatchObject({ code: 'OAUTH_CALLBACK_REJECTED' });
    expect(sandbox.countRequests(TOKEN)).toBe(0);
  });

  it('CB-02 a forged state is answered 400, never exchanged, and the genuine callback still completes', async () => {
    const sandbox = await harness.sandbox({ autoApprove: true });
    let genuine: URL | undefined;
    const browser = fakeBrowser({
      tamper: (callback) => {
        genuine = new URL(callback);
        const forged = new URL(callback);
        forged.searchParams.set('state', 'forged');
        return forged;
      },
    });
    const session = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser });
    const waiting = session.accessToken({ ...READ_COURSES, waitMs: 20_000 });
    await until(() => browser.deliveries.length === 1, 'the forged delivery');
    expect(browser.deliveries).toEqual([400]);
    expect(sandbox.countRequests(TOKEN)).toBe(0);
    expect((await fetch(genuine!)).status).toBe(200);
    await expect(waiting).resolves.toMatch(/\S+/);
    expect(sandbox.countRequests(TOKEN)).toBe(1);
  });

  it('AZ-03 a school without S256 is refused before registration, prompt or authorization', async () => {
    const sandbox = await harness.sandbox({ autoApprove: true, faults: { omitS256FromMetadata: true } });
    const browser = fakeBrowser();
    const session = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser });
    await expect(session.accessToken(READ_COURSES)).rejects.toMatchObject({ code: 'OAUTH_PKCE_UNSUPPORTED' });
    expect(browser.prompts).toEqual([]);
    expect(
      sandbox.countRequests(REGISTER) + sandbox.countRequests('/oauth/authorize') + sandbox.countRequests(TOKEN),
    ).toBe(0);
  });

  it('MD-01 metadata naming another issuer stops everything before registration', async () => {
    const sandbox = await harness.sandbox({
      autoApprove: true,
      faults: { wrongIssuerInMetadata: 'http://127.0.0.1:9' },
    });
    const browser = fakeBrowser();
    const session = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser });
    await expect(session.accessToken(READ_COURSES)).rejects.toMatchObject({ code: 'OAUTH_ISSUER_MISMATCH' });
    expect(browser.prompts).toEqual([]);
    expect(sandbox.countRequests(REGISTER)).toBe(0);
  });

  it('RG-02 a school refusing the redirect URI at registration gives OAUTH_REDIRECT_URI_REJECTED', async () => {
    const sandbox = await harness.sandbox();
    const target = parseSchoolUrl(sandbox.url);
    const fetch = createSchoolFetch();
    const metadata = await discoverSchool(target, fetch, harness.logger);
    await expect(
      registerClient(
        { target, metadata, fetch, logger: harness.logger, now: Date.now },
        'https://app.example/callback',
      ),
    ).rejects.toMatchObject({
      code: 'OAUTH_REDIRECT_URI_REJECTED',
      hint: expect.stringContaining('loopback'),
    });
  });

  for (const exactRedirectPort of [false, true]) {
    const kind = exactRedirectPort ? 'an exact-port' : 'an any-port';
    it(`RG-03 LB-03 with ${kind} school the registration and its port are reused across restarts`, async () => {
      const sandbox = await harness.sandbox({ autoApprove: true, exactRedirectPort });
      const browser = fakeBrowser();
      const first = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser });
      await first.accessToken(READ_COURSES);
      await first.revoke();
      await first.close();
      const second = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser });
      await second.accessToken(READ_COURSES);
      expect(sandbox.countRequests(REGISTER, 'POST')).toBe(1);
      const ports = browser.prompts.map(
        (prompt) => new URL(new URL(prompt.url).searchParams.get('redirect_uri')!).port,
      );
      expect(ports[0]).toBe(ports[1]);
    });

    it(`LB-03 RG-03 with ${kind} school a busy registered port leads to a new port and a new registration`, async () => {
      const sandbox = await harness.sandbox({ autoApprove: true, exactRedirectPort });
      const browser = fakeBrowser();
      const first = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser });
      await first.accessToken(READ_COURSES);
      await first.revoke();
      const registeredPort = Number(new URL(new URL(browser.prompts[0]!.url).searchParams.get('redirect_uri')!).port);
      const squatter = await occupy(registeredPort);
      try {
        const second = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser });
        await expect(second.accessToken(READ_COURSES)).resolves.toMatch(/\S+/);
        const port = Number(new URL(new URL(browser.prompts[1]!.url).searchParams.get('redirect_uri')!).port);
        expect(port).not.toBe(registeredPort);
        expect(sandbox.countRequests(REGISTER, 'POST')).toBe(2);
      } finally {
        await new Promise((resolve) => squatter.close(resolve));
      }
    });
  }

  it('LB-03 a configured callback port that is busy is a clear error, never a silent fallback', async () => {
    const sandbox = await harness.sandbox({ autoApprove: true });
    const squatter = await occupy(0);
    const port = (squatter.address() as { port: number }).port;
    try {
      const browser = fakeBrowser();
      const session = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser, callbackPort: port });
      await expect(session.accessToken(READ_COURSES)).rejects.toMatchObject({ code: 'OAUTH_CALLBACK_PORT_BUSY' });
      expect(browser.prompts).toEqual([]);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });

  it('a pre-registered client signs in without registering', async () => {
    const sandbox = await harness.sandbox({ autoApprove: true });
    const first = harness.session({ schoolUrl: new URL(sandbox.url), prompter: fakeBrowser() });
    await first.accessToken(READ_COURSES);
    const { clientId } = await first.status();
    await first.revoke();
    const fixed = harness.session({ schoolUrl: new URL(sandbox.url), prompter: fakeBrowser(), clientId: clientId! });
    await expect(fixed.accessToken(READ_COURSES)).resolves.toMatch(/\S+/);
    expect(sandbox.countRequests(REGISTER, 'POST')).toBe(1);
  });
});

function occupy(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
