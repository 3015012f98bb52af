/**
 * One consent flow per issuer at a time, in this process and across processes. The process that
 * holds the consent lock runs the flow and writes the result to the store; any other process
 * waits by watching the store instead of opening another tab. A call that stops waiting leaves
 * the flow open, so the next call joins it (no second tab, no second registration).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../log.js';
import {
  OAuthError,
  consentPendingError,
  includesAll,
  isOAuthError,
  isStale,
  missingScopes,
  readLock,
  scopesToCheck,
  tryAcquireLock,
  unionScopes,
  type ConsentAttempt,
  type LockHandle,
  type OAuthErrorCode,
  type PendingConsentDetails,
  type StoreRecord,
  type TokenSet,
  type TokenStore,
} from '../oauth/index.js';
import type { ConsentPrompter } from './consent-prompter.js';

interface PendingFlow extends Partial<PendingConsentDetails> {
  scopes: string[];
  startedAt: number;
  /** Set when another process runs the flow. */
  remote: boolean;
  result: Promise<TokenSet>;
}

export interface ConsentCoordinatorOptions {
  store: TokenStore;
  logger: Logger;
  now: () => number;
  prompter: ConsentPrompter;
  issuer: () => Promise<string>;
  /** The longest a flow can run; a consent lock older than this (plus slack) is abandoned. */
  maxFlowMs: number;
  /** Starts a local attempt; called only while this process holds the consent lock. */
  startAttempt(scopes: string[]): Promise<ConsentAttempt>;
  /** Tokens in the record that this session may use, if any. */
  usableTokens(record: StoreRecord): TokenSet | undefined;
  pollMs?: number;
}

export interface ConsentCoordinator {
  consent(
    scopes: string[],
    options: { granted: readonly string[]; waitMs: number; signal?: AbortSignal },
  ): Promise<TokenSet>;
  pending(): PendingFlow | undefined;
  close(): void;
  /** Resolves once every local flow has finished its own bookkeeping (store writes, lock release). */
  settled(): Promise<void>;
}

/** A remote flow ended without a result we can use: try again (maybe running the flow ourselves). */
class RemoteFlowEnded extends Error {}

const FAILURE_CODES = new Set<OAuthErrorCode>([
  'OAUTH_ACCESS_DENIED',
  'OAUTH_CONSENT_TIMEOUT',
  'OAUTH_AUTHORIZATION_FAILED',
  'OAUTH_CALLBACK_REJECTED',
]);

/** Pure: whether a failure another process left in the token file is one its waiters end with. */
function isFlowFailureCode(code: string): code is OAuthErrorCode {
  return [...FAILURE_CODES].some((known) => known === code);
}

/** Pure: the scopes a lock holder's note names, read from its file, when they are a list of strings. */
function noteScopes(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((scope) => typeof scope === 'string') ? value : undefined;
}

export function createConsentCoordinator(options: ConsentCoordinatorOptions): ConsentCoordinator {
  const lockPath = options.store.lockPath('consent');
  const lockOptions = { ...options.store.lockOptions, staleMs: options.maxFlowMs + 30_000 };
  const pollMs = options.pollMs ?? 200;
  const closing = new AbortController();
  let current: PendingFlow | undefined;
  let cancelLocal: ((error: OAuthError) => void) | undefined;
  const localFlows = new Set<Promise<unknown>>();

  const satisfied = async (scopes: string[]): Promise<TokenSet | undefined> => {
    const tokens = options.usableTokens(await options.store.read());
    return tokens && includesAll(tokens.scopes, scopesToCheck(scopes)) ? tokens : undefined;
  };

  async function openLocal(lock: LockHandle, scopes: string[], granted: readonly string[]): Promise<PendingFlow> {
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
    const markedAnswered = attempt.answered
      .then(() => lock.annotate({ ...note, answered: true }))
      .catch(() => undefined);
    const flowEnded = new AbortController();
    cancelLocal = attempt.cancel;
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
        await recordFailure(error).catch(() => undefined);
        throw error;
      })
      // Promise.prototype.finally waits for a promise its callback returns (ECMA-262 27.2.5.3), though
      // lib.d.ts types that callback as returning void.
      // oxlint-disable-next-line typescript/no-misused-promises
      .finally(async () => {
        flowEnded.abort();
        cancelLocal = undefined;
        await markedAnswered;
        await lock.release();
      });
    const bookkeeping = result.then(
      () => undefined,
      () => undefined,
    );
    localFlows.add(bookkeeping);
    void bookkeeping.finally(() => localFlows.delete(bookkeeping));
    const flow: PendingFlow = {
      url: attempt.url,
      scopes: attempt.scopes,
      startedAt: attempt.startedAt,
      remote: false,
      result,
    };
    void present(attempt, granted, flowEnded.signal);
    return flow;
  }

  async function present(attempt: ConsentAttempt, granted: readonly string[], signal: AbortSignal): Promise<void> {
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

  async function recordFailure(error: unknown): Promise<void> {
    // A flow ended by this process shutting down says nothing about the user's answer; a waiting
    // process should start its own flow rather than inherit a failure, and the store stays as it was.
    if (isOAuthError(error, 'OAUTH_CLOSED') || isOAuthError(error, 'OAUTH_ABORTED')) return;
    const invalidClient = isOAuthError(error) && error.details?.invalidClient === true;
    const code = isOAuthError(error) ? error.code : 'OAUTH_AUTHORIZATION_FAILED';
    await options.store.update((record) => {
      const next: StoreRecord = { ...record, lastConsentFailure: { code, at: options.now() } };
      // The school no longer knows the registration: forget it so the next attempt registers again.
      if (invalidClient && record.client?.kind === 'dynamic') {
        delete next.client;
        delete next.tokens;
      }
      return next;
    });
  }

  /**
   * Joins the flow another process runs. When its link was already answered, or its lock is gone,
   * only its outcome is left to join: the tokens, or the failure thrown, once stored; `undefined`
   * when it leaves nothing to use, and a flow of our own is next.
   */
  async function openRemote(scopes: string[]): Promise<PendingFlow | TokenSet | undefined> {
    const since = options.now();
    options.logger.info('another school-mcp process is asking for approval at this school; waiting for its answer');
    // The holder writes the URL once its listener is bound; give it a moment. A holder that let
    // go meanwhile ended its flow: what it left is the answer to join.
    let holder = await readLock(lockPath);
    if (!holder) return outcomeOfEndedFlow(scopes, since);
    for (let waited = 0; typeof holder?.note?.url !== 'string' && waited < 5_000; waited += pollMs) {
      await sleep(pollMs, undefined, { signal: closing.signal });
      holder = await readLock(lockPath);
      if (!holder) return outcomeOfEndedFlow(scopes, since);
    }
    if (holder?.note?.answered === true) {
      await holderGone();
      return outcomeOfEndedFlow(scopes, since);
    }
    const note = holder?.note;
    const result = watchRemote(scopes, since);
    result.catch(() => undefined);
    return {
      ...(typeof note?.url === 'string' ? { url: note.url } : {}),
      scopes: noteScopes(note?.scopes) ?? scopes,
      startedAt: typeof note?.startedAt === 'number' ? note.startedAt : since,
      remote: true,
      result,
    };
  }

  /** Until the process holding the consent lock lets go of it, or is judged to have died. */
  async function holderGone(): Promise<void> {
    for (;;) {
      const holder = await readLock(lockPath);
      if (!holder || isStale(holder, lockOptions)) return;
      await sleep(pollMs, undefined, { signal: closing.signal });
    }
  }

  /**
   * What a flow of another process left once its lock is gone: the tokens, when they cover
   * `scopes`; its failure, thrown, when it ended after `since`; otherwise `undefined`.
   */
  async function outcomeOfEndedFlow(scopes: string[], since: number): Promise<TokenSet | undefined> {
    const after = await options.store.read();
    const usable = options.usableTokens(after);
    if (usable && includesAll(usable.scopes, scopesToCheck(scopes))) return usable;
    const failure = after.lastConsentFailure;
    if (failure && failure.at >= since && isFlowFailureCode(failure.code)) {
      throw new OAuthError(failure.code, 'The sign-in started by another school-mcp process did not succeed.', {
        hint: 'Ask again to start a new sign-in.',
      });
    }
    return undefined;
  }

  async function watchRemote(scopes: string[], since: number): Promise<TokenSet> {
    for (;;) {
      const tokens = await satisfied(scopes);
      if (tokens) return tokens;
      const holder = await readLock(lockPath);
      if (!holder || isStale(holder, lockOptions)) {
        const ended = await outcomeOfEndedFlow(scopes, since);
        if (ended) return ended;
        throw new RemoteFlowEnded();
      }
      await sleep(pollMs, undefined, { signal: closing.signal });
    }
  }

  async function open(scopes: string[], granted: readonly string[]): Promise<PendingFlow | TokenSet> {
    let lock = await tryAcquireLock(lockPath, lockOptions);
    while (!lock) {
      const remote = await openRemote(scopes);
      if (remote !== undefined) return remote;
      // The other flow is over, or about to be: what it stored may be enough; otherwise run our own.
      lock = await tryAcquireLock(lockPath, lockOptions);
    }
    // Another process may have finished a flow between our last look and taking the lock.
    const done = await satisfied(scopes).catch(async (error: unknown) => {
      await lock.release();
      throw error;
    });
    if (done) {
      await lock.release();
      return done;
    }
    return openLocal(lock, scopes, granted);
  }

  async function waitFor(flow: PendingFlow, deadline: number, signal?: AbortSignal): Promise<TokenSet> {
    const remaining = deadline - options.now();
    // A caller that does not wait is told the flow is pending, and nothing else. Racing the flow
    // against a 0 ms timer would hand it the flow's own ending whenever the user's answer lands in
    // that millisecond, as if the call itself had been refused; how a flow ended is read from the
    // flow (the consent broker joins it and words the answer).
    if (remaining <= 0)
      throw consentPendingError({ url: flow.url ?? '', scopes: flow.scopes, startedAt: flow.startedAt });
    // Waiting as long as the flow lives: its own outcome (approved, denied, timed out) is the answer.
    const outlivesFlow = remaining >= flow.startedAt + options.maxFlowMs - options.now();
    const stop = new AbortController();
    const abort = signal
      ? AbortSignal.any([signal, stop.signal, closing.signal])
      : AbortSignal.any([stop.signal, closing.signal]);
    try {
      return await Promise.race([
        flow.result,
        sleep(outlivesFlow ? options.maxFlowMs + 60_000 : remaining, undefined, { signal: abort }).then(
          () => {
            throw consentPendingError({ url: flow.url ?? '', scopes: flow.scopes, startedAt: flow.startedAt });
          },
          () => {
            throw closing.signal.aborted
              ? new OAuthError('OAUTH_CLOSED', 'The sign-in session was closed.', { hint: 'Start school-mcp again.' })
              : new OAuthError('OAUTH_ABORTED', 'The request was cancelled while waiting for approval.', {
                  hint: 'The approval stays open; ask again to keep waiting.',
                });
          },
        ),
      ]);
    } finally {
      stop.abort();
    }
  }

  return {
    async consent(scopes, { granted, waitMs, signal }) {
      const deadline = options.now() + waitMs;
      let wanted = scopes;
      for (;;) {
        if (closing.signal.aborted)
          throw new OAuthError('OAUTH_CLOSED', 'The sign-in session was closed.', { hint: 'Start school-mcp again.' });
        if (!current) {
          const opened = await open(wanted, granted);
          if (!('result' in opened)) return opened;
          const flow = opened;
          current = flow;
          flow.result
            .then(
              () => undefined,
              () => undefined,
            )
            .finally(() => {
              if (current === flow) current = undefined;
            });
        }
        const flow = current;
        try {
          const tokens = await waitFor(flow, deadline, signal);
          if (includesAll(tokens.scopes, scopesToCheck(wanted)) || includesAll(flow.scopes, wanted)) return tokens;
          // That flow asked for less: the next one asks for what it granted plus what we need.
          wanted = unionScopes(tokens.scopes, wanted);
        } catch (error) {
          if (!(error instanceof RemoteFlowEnded)) throw error;
        }
        if (current === flow) current = undefined;
      }
    },
    pending: () => current,
    close() {
      closing.abort();
      cancelLocal?.(
        new OAuthError('OAUTH_CLOSED', 'The sign-in was stopped because school-mcp is shutting down.', {
          hint: 'Start it again to sign in.',
        }),
      );
    },
    async settled() {
      await Promise.allSettled([...localFlows]);
    },
  };
}
