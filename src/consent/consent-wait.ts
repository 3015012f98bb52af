/**
 * A call's bounded wait for the user: the flow's outcome, the configured time running out, or
 * the client cancelling the request, whichever comes first. The flow itself is left open, so a
 * later call joins it. While waiting, a progress notification goes out now and then when the
 * client asked for progress (its requests then need not time out).
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { ConsentOutcome } from './consent-broker.js';

/**
 * The least time between two progress notifications of one waiting call: enough for a client
 * that resets its timeout on progress, few enough not to flood the conversation.
 */
export const PROGRESS_INTERVAL_MS = 5_000;

export type WaitResult =
  | ConsentOutcome
  | { readonly kind: 'pending' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'leaving' };

export interface WaitOptions {
  readonly waitMs: number;
  readonly signal: AbortSignal;
  /** Aborted when the process that owns the flow is going away: the flow cannot finish. */
  readonly leaving?: AbortSignal;
  /** Called every `tickMs` while waiting, with the time waited so far. */
  readonly onTick?: (waitedMs: number) => void;
  readonly tickMs: number;
}

export async function waitForConsent(outcome: Promise<ConsentOutcome>, options: WaitOptions): Promise<WaitResult> {
  if (options.signal.aborted) return { kind: 'cancelled' };
  if (options.leaving?.aborted) return { kind: 'leaving' };
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let ticker: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  let onLeaving: (() => void) | undefined;
  try {
    return await Promise.race<WaitResult>([
      outcome,
      new Promise<WaitResult>((resolve) => {
        timer = setTimeout(() => resolve({ kind: 'pending' }), Math.max(0, options.waitMs));
        onAbort = () => resolve({ kind: 'cancelled' });
        options.signal.addEventListener('abort', onAbort, { once: true });
        onLeaving = () => resolve({ kind: 'leaving' });
        options.leaving?.addEventListener('abort', onLeaving, { once: true });
        if (options.onTick) {
          const tick = options.onTick;
          // At once, so that a short wait still tells the client what the call waits for.
          tick(0);
          ticker = setInterval(() => tick(Date.now() - started), options.tickMs);
        }
      }),
    ]);
  } finally {
    clearTimeout(timer);
    clearInterval(ticker);
    if (onAbort) options.signal.removeEventListener('abort', onAbort);
    if (onLeaving) options.leaving?.removeEventListener('abort', onLeaving);
  }
}

/**
 * Progress notifications for the request, when its `_meta` carries a progress token; `undefined`
 * otherwise. `progress` increases with every notice, as the protocol requires.
 */
export function progressReporter(
  context: ServerContext,
  totalMs: number,
  message: string,
): ((waitedMs: number) => void) | undefined {
  const progressToken = context.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  const total = Math.max(1, Math.round(totalMs / 1000));
  let last = 0;
  return (waitedMs) => {
    const progress = Math.max(last + 1, Math.round(waitedMs / 1000));
    last = progress;
    void context.mcpReq
      .notify({ method: 'notifications/progress', params: { progressToken, progress, total, message } })
      .catch(() => undefined);
  };
}
