/**
 * The coordinator's answer to a caller that does not wait (the executor asks with `waitMs: 0`):
 * the flow is pending, and never the flow's own ending, however close the user's answer lands;
 * and never another process's link once the browser has come back to it. The flow's attempt is
 * played by hand so that its ending can be placed exactly.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { createConsentCoordinator, type ConsentCoordinator } from '../../src/consent/consent-coordinator.js';
import {
  createTokenStore,
  OAuthError,
  readLock,
  type ConsentAttempt,
  type ConsentResult,
  type StoredClient,
  type TokenSet,
} from '../../src/oauth/index.js';

const ISSUER = 'https://school.example';
const SCOPES = ['openid', 'profile', 'members:write'];

interface PlayedAttempt {
  readonly attempt: ConsentAttempt;
  /** The browser came back to the listener: the link is dead, the code not yet exchanged. */
  answer(): void;
  grant(tokens: TokenSet): void;
  deny(): void;
}

const CLIENT: StoredClient = {
  kind: 'dynamic',
  clientId: 'client-1',
  redirectUris: ['http://127.0.0.1:1/callback'],
  registeredAt: Date.now(),
};

function playedAttempt(url: string, scopes: string[] = SCOPES): PlayedAttempt {
  let resolve!: (result: ConsentResult) => void;
  let reject!: (error: unknown) => void;
  let answer!: () => void;
  const result = new Promise<ConsentResult>((resolveResult, rejectResult) => {
    resolve = resolveResult;
    reject = rejectResult;
  });
  const answered = new Promise<void>((resolveAnswered) => {
    answer = resolveAnswered;
  });
  const denial = new OAuthError('OAUTH_ACCESS_DENIED', 'The user did not approve the sign-in.', { hint: 'Ask again.' });
  return {
    attempt: {
      url,
      scopes,
      startedAt: Date.now(),
      client: CLIENT,
      answered,
      result,
      cancel: (error) => {
        answer();
        reject(error);
      },
    },
    answer,
    grant: (tokens) => {
      answer();
      resolve({ tokens, client: CLIENT });
    },
    deny: () => {
      answer();
      reject(denial);
    },
  };
}

describe('consent coordinator, a caller that does not wait', () => {
  let dir: string;
  let coordinator: ConsentCoordinator;
  let played: PlayedAttempt;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'school-mcp-coordinator-'));
    const logger = createLogger({ write: () => undefined });
    played = playedAttempt(`${ISSUER}/oauth/authorize?state=first`);
    coordinator = createConsentCoordinator({
      store: createTokenStore({ dir, issuer: ISSUER, logger, now: Date.now }),
      logger,
      now: Date.now,
      prompter: { present: async () => undefined },
      issuer: async () => ISSUER,
      maxFlowMs: 60_000,
      startAttempt: async () => played.attempt,
      usableTokens: (record) => record.tokens,
    });
  });

  afterEach(async () => {
    coordinator.close();
    await coordinator.settled();
    await rm(dir, { recursive: true, force: true });
  });

  it('is told the flow is pending when it asks in the moment the denial lands, and the flow reports the denial', async () => {
    await expect(coordinator.consent(SCOPES, { granted: [], waitMs: 0 })).rejects.toMatchObject({
      code: 'OAUTH_CONSENT_PENDING',
    });
    const flow = coordinator.pending();
    expect(flow?.url).toBe(played.attempt.url);

    // Asked from the first reaction to the denial: the flow has ended, yet is still the current
    // one for a few microtasks. That is the window in which a zero wait used to get the denial.
    let stillCurrent = false;
    const joined = flow!.result.then(
      () => Promise.reject(new Error('the played flow was denied, not granted')),
      () => {
        stillCurrent = coordinator.pending() === flow;
        return coordinator.consent(SCOPES, { granted: [], waitMs: 0 });
      },
    );
    played.deny();
    await expect(joined).rejects.toMatchObject({ code: 'OAUTH_CONSENT_PENDING', details: { url: played.attempt.url } });
    expect(stillCurrent).toBe(true);
    await expect(flow!.result).rejects.toMatchObject({ code: 'OAUTH_ACCESS_DENIED' });
  });

  it('hands the ending to a caller that waits for it', async () => {
    await expect(coordinator.consent(SCOPES, { granted: [], waitMs: 0 })).rejects.toMatchObject({
      code: 'OAUTH_CONSENT_PENDING',
    });
    const waiting = coordinator.consent(SCOPES, { granted: [], waitMs: 60_000 });
    played.deny();
    await expect(waiting).rejects.toMatchObject({ code: 'OAUTH_ACCESS_DENIED' });
  });
});

describe('consent coordinator, two processes on one token store', () => {
  let dir: string;
  const coordinators: ConsentCoordinator[] = [];

  function coordinatorFor(attempts: PlayedAttempt[]): ConsentCoordinator {
    const logger = createLogger({ write: () => undefined });
    const coordinator = createConsentCoordinator({
      store: createTokenStore({ dir, issuer: ISSUER, logger, now: Date.now }),
      logger,
      now: Date.now,
      prompter: { present: async () => undefined },
      issuer: async () => ISSUER,
      maxFlowMs: 60_000,
      startAttempt: async () => attempts.shift()!.attempt,
      usableTokens: (record) => record.tokens,
      pollMs: 10,
    });
    coordinators.push(coordinator);
    return coordinator;
  }

  /** Until the holder's lock note says its browser came back. */
  async function linkAnswered(): Promise<void> {
    const lockPath = createTokenStore({
      dir,
      issuer: ISSUER,
      logger: createLogger({ write: () => undefined }),
      now: Date.now,
    }).lockPath('consent');
    await expect.poll(async () => (await readLock(lockPath))?.note?.['answered']).toBe(true);
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'school-mcp-coordinator-'));
  });

  afterEach(async () => {
    for (const coordinator of coordinators.splice(0)) {
      coordinator.close();
      await coordinator.settled();
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('never hands out a link the browser already came back to: it waits for that flow, then asks for what is still missing', async () => {
    const coursesFlow = playedAttempt(`${ISSUER}/oauth/authorize?state=courses`, ['openid', 'courses:write']);
    const lecturersFlow = playedAttempt(`${ISSUER}/oauth/authorize?state=lecturers`, [
      'openid',
      'courses:write',
      'lecturers:write',
    ]);
    const holder = coordinatorFor([coursesFlow]);
    const other = coordinatorFor([lecturersFlow]);
    await expect(holder.consent(['openid', 'courses:write'], { granted: [], waitMs: 0 })).rejects.toMatchObject({
      details: { url: coursesFlow.attempt.url },
    });

    // The user approved: the listener has its answer and closed, the code is being exchanged.
    coursesFlow.answer();
    await linkAnswered();

    const asked = other.consent(['openid', 'courses:write', 'lecturers:write'], {
      granted: ['openid', 'courses:write'],
      waitMs: 0,
    });
    coursesFlow.grant({
      accessToken: 'at-courses',
      scopes: ['openid', 'courses:write'],
      resource: ISSUER,
      clientId: 'client-1',
      obtainedAt: Date.now(),
    });
    await expect(asked).rejects.toMatchObject({
      code: 'OAUTH_CONSENT_PENDING',
      details: { url: lecturersFlow.attempt.url },
    });
  });

  it("a flow whose link was answered and granted what is needed ends the other process's wait with its tokens", async () => {
    const flow = playedAttempt(`${ISSUER}/oauth/authorize?state=both`, SCOPES);
    const holder = coordinatorFor([flow]);
    const other = coordinatorFor([]);
    await expect(holder.consent(SCOPES, { granted: [], waitMs: 0 })).rejects.toMatchObject({
      code: 'OAUTH_CONSENT_PENDING',
    });
    flow.answer();
    await linkAnswered();
    const asked = other.consent(SCOPES, { granted: [], waitMs: 0 });
    flow.grant({
      accessToken: 'at-both',
      scopes: SCOPES,
      resource: ISSUER,
      clientId: 'client-1',
      obtainedAt: Date.now(),
    });
    await expect(asked).resolves.toMatchObject({ accessToken: 'at-both' });
  });

  it('a process that finds the link answered and then denied learns the denial, without starting a flow of its own', async () => {
    const flow = playedAttempt(`${ISSUER}/oauth/authorize?state=denied`, SCOPES);
    const ownFlow = playedAttempt(`${ISSUER}/oauth/authorize?state=own`, SCOPES);
    const holder = coordinatorFor([flow]);
    const other = coordinatorFor([ownFlow]);
    await expect(holder.consent(SCOPES, { granted: [], waitMs: 0 })).rejects.toMatchObject({
      code: 'OAUTH_CONSENT_PENDING',
    });
    flow.answer();
    await linkAnswered();
    const asked = other.consent(SCOPES, { granted: [], waitMs: 0 });
    flow.deny();
    await expect(asked).rejects.toMatchObject({ code: 'OAUTH_ACCESS_DENIED' });
    expect(other.pending()).toBeUndefined();
  });
});
