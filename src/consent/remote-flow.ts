/**
 * Joining the consent flow another process runs: it holds the consent lock, so this process
 * watches the lock and the token store instead of opening another tab.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../log.js';
import { OAuthError, isStale, readLock, type StoreRecord, type TokenSet, type TokenStore } from '../oauth/index.js';
import { endedFlowOutcome, tokensCovering } from './ended-flow-outcome.js';
import type { PendingFlow } from './pending-flow.js';
import { joinStep, watchStep } from './remote-flow-step.js';

export interface RemoteFlowOptions {
  readonly store: TokenStore;
  readonly logger: Logger;
  readonly now: () => number;
  readonly lockPath: string;
  readonly lockOptions: Parameters<typeof isStale>[1];
  readonly pollMs: number;
  /** Aborted when the coordinator closes: every wait ends. */
  readonly closing: AbortSignal;
  /** Tokens in the record that this session may use, if any. */
  usableTokens(record: StoreRecord): TokenSet | undefined;
}

/** A remote flow ended without a result we can use: try again (maybe running the flow ourselves). */
export class RemoteFlowEnded extends Error {}

/**
 * Joins the flow another process runs. When its link was already answered, or its lock is gone,
 * only its outcome is left to join: the tokens, or the failure thrown, once stored; `undefined`
 * when it leaves nothing to use, and a flow of our own is next.
 */
export async function joinRemoteFlow(
  options: RemoteFlowOptions,
  scopes: string[],
): Promise<PendingFlow | TokenSet | undefined> {
  const since = options.now();
  options.logger.info('another school-mcp process is asking for approval at this school; waiting for its answer');
  for (let waitedMs = 0; ; waitedMs += options.pollMs) {
    const step = joinStep({ holder: await readLock(options.lockPath), waitedMs, scopes, since });
    switch (step.kind) {
      case 'wait-for-link':
        await sleep(options.pollMs, undefined, { signal: options.closing });
        continue;
      case 'await-release':
        await holderGone(options);
        return outcomeOfEndedFlow(options, scopes, since);
      case 'read-outcome':
        return outcomeOfEndedFlow(options, scopes, since);
      case 'join': {
        const result = watchRemote(options, scopes, since);
        result.catch(() => undefined);
        return {
          ...(step.url === undefined ? {} : { url: step.url }),
          scopes: [...step.scopes],
          startedAt: step.startedAt,
          remote: true,
          result,
        };
      }
    }
  }
}

/** Until the process holding the consent lock lets go of it, or is judged to have died. */
async function holderGone(options: RemoteFlowOptions): Promise<void> {
  for (;;) {
    const holder = await readLock(options.lockPath);
    if (!holder || isStale(holder, options.lockOptions)) return;
    await sleep(options.pollMs, undefined, { signal: options.closing });
  }
}

/**
 * What a flow of another process left once its lock is gone: the tokens, when they cover
 * `scopes`; its failure, thrown, when it ended after `since`; otherwise `undefined`.
 */
async function outcomeOfEndedFlow(
  options: RemoteFlowOptions,
  scopes: string[],
  since: number,
): Promise<TokenSet | undefined> {
  const after = await options.store.read();
  const outcome = endedFlowOutcome({
    usable: options.usableTokens(after),
    scopes,
    lastFailure: after.lastConsentFailure,
    since,
  });
  if (outcome.kind === 'tokens') return outcome.tokens;
  if (outcome.kind === 'nothing') return undefined;
  throw new OAuthError(outcome.code, 'The sign-in started by another school-mcp process did not succeed.', {
    hint: 'Ask again to start a new sign-in.',
  });
}

async function watchRemote(options: RemoteFlowOptions, scopes: string[], since: number): Promise<TokenSet> {
  for (;;) {
    const tokens = tokensCovering(options.usableTokens(await options.store.read()), scopes);
    const holder = tokens === undefined ? await readLock(options.lockPath) : undefined;
    const step = watchStep({
      covering: tokens,
      held: holder !== undefined,
      stale: holder !== undefined && isStale(holder, options.lockOptions),
    });
    if (step.kind === 'done') return step.tokens;
    if (step.kind === 'read-outcome') {
      const ended = await outcomeOfEndedFlow(options, scopes, since);
      if (ended) return ended;
      throw new RemoteFlowEnded();
    }
    await sleep(options.pollMs, undefined, { signal: options.closing });
  }
}
