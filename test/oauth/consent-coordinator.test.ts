/**
 * The coordinator's answer to a caller that does not wait (the executor asks with `waitMs: 0`):
 * the flow is pending, and never the flow's own ending, however close the user's answer lands.
 * The flow's attempt is played by hand so that its ending can be placed exactly.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import type { ConsentAttempt, ConsentResult } from '../../src/oauth/consent-attempt.js';
import { createConsentCoordinator, type ConsentCoordinator } from '../../src/consent/consent-coordinator.js';
import { OAuthError } from '../../src/oauth/oauth-error.js';
import { createTokenStore } from '../../src/oauth/token-store.js';

const ISSUER = 'https://school.example';
const SCOPES = ['openid', 'profile', 'members:write'];

interface PlayedAttempt {
  readonly attempt: ConsentAttempt;
  deny(): void;
}

function playedAttempt(url: string): PlayedAttempt {
  let reject!: (error: unknown) => void;
  const result = new Promise<ConsentResult>((_resolve, rejectResult) => {
    reject = rejectResult;
  });
  const denial = new OAuthError('OAUTH_ACCESS_DENIED', 'The user did not approve the sign-in.', { hint: 'Ask again.' });
  return {
    attempt: {
      url,
      scopes: SCOPES,
      startedAt: Date.now(),
      client: { kind: 'dynamic', clientId: 'client-1', redirectUris: ['http://127.0.0.1:1/callback'], registeredAt: Date.now() },
      result,
      cancel: (error) => reject(error),
    },
    deny: () => reject(denial),
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
    await expect(coordinator.consent(SCOPES, { granted: [], waitMs: 0 })).rejects.toMatchObject({ code: 'OAUTH_CONSENT_PENDING' });
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
    await expect(coordinator.consent(SCOPES, { granted: [], waitMs: 0 })).rejects.toMatchObject({ code: 'OAUTH_CONSENT_PENDING' });
    const waiting = coordinator.consent(SCOPES, { granted: [], waitMs: 60_000 });
    played.deny();
    await expect(waiting).rejects.toMatchObject({ code: 'OAUTH_ACCESS_DENIED' });
  });
});
