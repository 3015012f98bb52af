/**
 * LB-05 with fake timers: the consent flow gives up after its timeout (default 5 minutes) without
 * a real wait; the listener is gone, nothing was exchanged, and the next sign-in starts afresh.
 * Only `setTimeout` is faked; sockets stay real.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CONSENT_TIMEOUT_MS } from '../../src/oauth/index.js';
import { recordingPrompter } from './support/fake-browser.js';
import { createHarness, READ_COURSES, type Harness } from './support/harness.js';
import { startMockSchool, type MockSchool } from './support/mock-school.js';

let harness: Harness;
let school: MockSchool;
beforeEach(async () => {
  harness = await createHarness();
  school = await startMockSchool();
});
afterEach(async () => {
  vi.useRealTimers();
  await harness.cleanup();
  await school.close();
});

const redirectOf = (url: string) => new URL(new URL(url).searchParams.get('redirect_uri')!);

async function approve(url: string): Promise<void> {
  const location = (await fetch(url, { redirect: 'manual' })).headers.get('location')!;
  await (await fetch(location)).text();
}

describe('consent timeout', () => {
  it('LB-05 AZ-02 after 5 minutes the flow fails, the listener is closed, no code was exchanged; the next login has a fresh state', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const prompter = recordingPrompter();
    const session = harness.session({
      schoolUrl: new URL(school.base),
      prompter,
      consentTimeoutMs: DEFAULT_CONSENT_TIMEOUT_MS,
    });
    const firstPrompt = prompter.next();
    const waiting = session.accessToken(READ_COURSES);
    waiting.catch(() => undefined);
    const first = await firstPrompt;
    const callback = redirectOf(first.url);

    await vi.advanceTimersByTimeAsync(DEFAULT_CONSENT_TIMEOUT_MS - 1_000);
    expect(session.pendingConsent()?.url).toBe(first.url);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(waiting).rejects.toMatchObject({ code: 'OAUTH_CONSENT_TIMEOUT' });
    expect(session.pendingConsent()).toBeUndefined();
    vi.useRealTimers();

    // A late answer finds nobody listening.
    callback.search = new URLSearchParams({
      code: 'late',
      state: new URL(first.url).searchParams.get('state')!,
      iss: school.base,
    }).toString();
    await expect(fetch(callback)).rejects.toThrow();
    expect(school.formsTo('token')).toHaveLength(0);

    const secondPrompt = prompter.next();
    const again = session.accessToken(READ_COURSES);
    const second = await secondPrompt;
    await approve(second.url);
    await expect(again).resolves.toMatch(/^AT-CANARY-/);
    const stateOf = (url: string) => new URL(url).searchParams.get('state');
    const challengeOf = (url: string) => new URL(url).searchParams.get('code_challenge');
    expect(stateOf(second.url)).not.toBe(stateOf(first.url));
    expect(challengeOf(second.url)).not.toBe(challengeOf(first.url));
    expect(school.formsTo('token')).toHaveLength(1);
  });
});
