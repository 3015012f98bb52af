/**
 * A consent flow run by this process, which holds the consent lock: the attempt, its prompt, the
 * lock's note for processes that wait, and what the store keeps of its ending. The lock is
 * released once the ending is stored.
 */
import type { Logger } from '../log.js';
import {
  isOAuthError,
  missingScopes,
  type ConsentAttempt,
  type LockHandle,
  type OAuthError,
  type StoreRecord,
  type TokenStore,
} from '../oauth/index.js';
import { failureRecord, recordWithFailure } from './consent-failure-record.js';
import type { ConsentPrompter } from './consent-prompter.js';
import type { PendingFlow } from './pending-flow.js';

export interface LocalFlowOptions {
  readonly store: TokenStore;
  readonly logger: Logger;
  readonly now: () => number;
  readonly prompter: ConsentPrompter;
  readonly issuer: () => Promise<string>;
  /** Starts a local attempt; called only while this process holds the consent lock. */
  startAttempt(scopes: string[]): Promise<ConsentAttempt>;
}

export interface LocalFlow {
  readonly flow: PendingFlow;
  /** Ends the attempt with `error`; does nothing once the flow has ended. */
  cancel(error: OAuthError): void;
  /** Settles once the flow's ending is stored and the lock released. */
  readonly bookkeeping: Promise<void>;
}

export async function startLocalFlow(
  options: LocalFlowOptions,
  lock: LockHandle,
  scopes: string[],
  granted: readonly string[],
): Promise<LocalFlow> {
  let attempt: ConsentAttempt;
  try {
    attempt = await options.startAttempt(scopes);
  } catch (error) {
    await lock.release();
    throw error;
  }
  const note = { url: attempt.url, scopes: attempt.scopes, startedAt: attempt.startedAt };
  await lock.annotate(note).catch(() => undefined);
  // Once the browser came back the link is dead, but the lock is held until the code is exchanged
  // and stored: say so, so that another process waits for the outcome instead of showing the link.
  // The attempt settles `answered` before `result`; the release below waits for this rewrite,
  // so that it can never land on a lock another process took in between.
  const markedAnswered = attempt.answered.then(() => lock.annotate({ ...note, answered: true })).catch(() => undefined);
  const flowEnded = new AbortController();
  let cancel: ((error: OAuthError) => void) | undefined = attempt.cancel;
  const result = attempt.result
    .then(async ({ tokens, client }) => {
      await options.store.update((record) => {
        const next: StoreRecord = { ...record, client, tokens };
        delete next.lastConsentFailure;
        return next;
      });
      return tokens;
    })
    .catch(async (error: unknown) => {
      await recordFailure(options, error).catch(() => undefined);
      throw error;
    })
    // Promise.prototype.finally waits for a promise its callback returns (ECMA-262 27.2.5.3), though
    // lib.d.ts types that callback as returning void.
    // oxlint-disable-next-line typescript/no-misused-promises
    .finally(async () => {
      flowEnded.abort();
      cancel = undefined;
      await markedAnswered;
      await lock.release();
    });
  const bookkeeping = result.then(
    () => undefined,
    () => undefined,
  );
  void present(options, attempt, granted, flowEnded.signal);
  return {
    flow: { url: attempt.url, scopes: attempt.scopes, startedAt: attempt.startedAt, remote: false, result },
    cancel: (error) => cancel?.(error),
    bookkeeping,
  };
}

async function present(
  options: LocalFlowOptions,
  attempt: ConsentAttempt,
  granted: readonly string[],
  signal: AbortSignal,
): Promise<void> {
  try {
    await options.prompter.present({
      url: attempt.url,
      scopes: attempt.scopes,
      newScopes: missingScopes(granted, attempt.scopes),
      issuer: await options.issuer(),
      signal,
    });
  } catch (error) {
    if (isOAuthError(error, 'OAUTH_ACCESS_DENIED')) attempt.cancel(error);
    else options.logger.warn('the consent prompt could not be shown; the URL was printed', { error });
  }
}

async function recordFailure(options: LocalFlowOptions, error: unknown): Promise<void> {
  const failure = failureRecord(error);
  if (failure.kind === 'leave-store') return;
  await options.store.update((record) => recordWithFailure(record, failure, options.now()));
}
