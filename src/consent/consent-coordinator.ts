/**
 * One consent flow per issuer at a time, in this process and across processes. The process that
 * holds the consent lock runs the flow and writes the result to the store; any other process
 * waits by watching the store instead of opening another tab. A call that stops waiting leaves
 * the flow open, so the next call joins it (no second tab, no second registration). The flows
 * themselves are `local-flow.ts` and `remote-flow.ts`; what to do next is decided by pure
 * functions (`remote-flow-step.ts`, `ended-flow-outcome.ts`, `flow-wait.ts`, `flow-follow-up.ts`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../log.js';
import {
  OAuthError,
  consentPendingError,
  tryAcquireLock,
  type ConsentAttempt,
  type StoreRecord,
  type TokenSet,
  type TokenStore,
} from '../oauth/index.js';
import type { ConsentPrompter } from './consent-prompter.js';
import { tokensCovering } from './ended-flow-outcome.js';
import { flowFollowUp } from './flow-follow-up.js';
import { flowWait } from './flow-wait.js';
import { startLocalFlow } from './local-flow.js';
import type { PendingFlow } from './pending-flow.js';
import { RemoteFlowEnded, joinRemoteFlow, type RemoteFlowOptions } from './remote-flow.js';

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

const closedError = () =>
  new OAuthError('OAUTH_CLOSED', 'The sign-in session was closed.', { hint: 'Start school-mcp again.' });

export function createConsentCoordinator(options: ConsentCoordinatorOptions): ConsentCoordinator {
  const closing = new AbortController();
  const remote: RemoteFlowOptions = {
    ...options,
    lockPath: options.store.lockPath('consent'),
    lockOptions: { ...options.store.lockOptions, staleMs: options.maxFlowMs + 30_000 },
    pollMs: options.pollMs ?? 200,
    closing: closing.signal,
  };
  let current: PendingFlow | undefined;
  let cancelLocal: ((error: OAuthError) => void) | undefined;
  const localFlows = new Set<Promise<unknown>>();

  const satisfied = async (scopes: string[]): Promise<TokenSet | undefined> =>
    tokensCovering(options.usableTokens(await options.store.read()), scopes);

  async function open(scopes: string[], granted: readonly string[]): Promise<PendingFlow | TokenSet> {
    let lock = await tryAcquireLock(remote.lockPath, remote.lockOptions);
    while (!lock) {
      const joined = await joinRemoteFlow(remote, scopes);
      if (joined !== undefined) return joined;
      // The other flow is over, or about to be: what it stored may be enough; otherwise run our own.
      lock = await tryAcquireLock(remote.lockPath, remote.lockOptions);
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
    const local = await startLocalFlow(options, lock, scopes, granted);
    cancelLocal = local.cancel;
    localFlows.add(local.bookkeeping);
    void local.bookkeeping.finally(() => localFlows.delete(local.bookkeeping));
    return local.flow;
  }

  async function waitFor(flow: PendingFlow, deadline: number, signal?: AbortSignal): Promise<TokenSet> {
    const pendingError = () =>
      consentPendingError({ url: flow.url ?? '', scopes: flow.scopes, startedAt: flow.startedAt });
    const wait = flowWait({
      remainingMs: deadline - options.now(),
      flowStartedAt: flow.startedAt,
      maxFlowMs: options.maxFlowMs,
      now: options.now(),
    });
    if (wait.kind === 'pending') throw pendingError();
    const stop = new AbortController();
    const abort = AbortSignal.any(signal ? [signal, stop.signal, closing.signal] : [stop.signal, closing.signal]);
    try {
      return await Promise.race([
        flow.result,
        sleep(wait.ms, undefined, { signal: abort }).then(
          () => {
            throw pendingError();
          },
          () => {
            throw closing.signal.aborted
              ? closedError()
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

  /** The flow a call waits for: the current one, or one it opens; tokens when none is needed. */
  async function flowFor(wanted: string[], granted: readonly string[]): Promise<PendingFlow | TokenSet> {
    if (current) return current;
    const opened = await open(wanted, granted);
    if (!('result' in opened)) return opened;
    const flow = opened;
    current = flow;
    void flow.result
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        if (current === flow) current = undefined;
      });
    return flow;
  }

  return {
    async consent(scopes, { granted, waitMs, signal }) {
      const deadline = options.now() + waitMs;
      let wanted = scopes;
      for (;;) {
        if (closing.signal.aborted) throw closedError();
        const flow = await flowFor(wanted, granted);
        if (!('result' in flow)) return flow;
        const tokens = await waitFor(flow, deadline, signal).catch((error: unknown) => {
          if (error instanceof RemoteFlowEnded) return undefined;
          throw error;
        });
        const next = flowFollowUp({
          wanted,
          flowScopes: flow.scopes,
          ended: tokens === undefined ? { kind: 'left-nothing' } : { kind: 'tokens', scopes: tokens.scopes },
        });
        if (next.kind === 'done' && tokens) return tokens;
        if (next.kind === 'consent') wanted = [...next.scopes];
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
