/**
 * A consent shown as a 2025-11-25 URL elicitation: the client shows the link and answers once
 * the user chose; `after-elicitation.ts` decides what the call does with that answer.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../log.js';
import type { ClientConnection, OperationResult } from '../server/index.js';
import { afterElicitation, type ElicitationEnd } from './after-elicitation.js';
import type { ConsentAnswers } from './consent-answers.js';
import type { ConsentBroker, PendingConsent } from './consent-broker.js';
import { cancelledResult, elicitationMessage } from './consent-messages.js';
import { remainingMs, type ReachingCall } from './reaching-call.js';

export interface UrlElicitationOptions {
  readonly broker: ConsentBroker;
  readonly answers: ConsentAnswers;
  readonly logger?: Logger | undefined;
  readonly leaving?: AbortSignal | undefined;
  /** Progress notifications of the call, when the client asked for them. */
  readonly reportProgress: ((waitedMs: number) => void) | undefined;
}

/** `wait` once the user opened the link; otherwise the call's answer. */
export async function elicitConsent(
  consent: PendingConsent,
  call: ReachingCall,
  options: UrlElicitationOptions,
): Promise<'wait' | OperationResult> {
  const { context, wording } = call;
  const { answers, leaving } = options;
  const elicitationId = randomUUID();
  // The client may take a while to show the link; say meanwhile what the call waits for.
  options.reportProgress?.(0);
  await answers.note(consent, 'call-waits');
  let end: ElicitationEnd;
  let failure: unknown;
  try {
    const answer = await context.mcpReq.elicitInput(
      { mode: 'url', elicitationId, url: consent.url, message: elicitationMessage(consent, wording) },
      // The client answers once the user chose; a call waiting for that still counts against the wait.
      {
        signal: leaving === undefined ? context.mcpReq.signal : AbortSignal.any([context.mcpReq.signal, leaving]),
        timeout: Math.max(1, Math.min(remainingMs(call), consent.expiresAt - Date.now())),
      },
    );
    end = { kind: 'answered', action: answer.action };
  } catch (error) {
    failure = error;
    end = { kind: 'failed', requestCancelled: context.mcpReq.signal.aborted, leaving: leaving?.aborted === true };
  }
  switch (afterElicitation(end)) {
    case 'wait':
      void completeOnGrant(options.broker, consent, call.connection, elicitationId);
      return 'wait';
    case 'decline':
      return answers.declined(consent, wording);
    case 'stop-waiting':
      return answers.pending(consent, wording, 0);
    case 'cancelled':
      return cancelledResult(wording);
    case 'leaving':
      return answers.leaving(consent, wording);
    case 'not-shown':
      options.logger?.warn('the client did not show the approval link; it goes into the tool result', {
        error: String(failure),
      });
      return answers.pending(consent, wording, 0);
  }
}

/** Tells the client that the approval it showed is done. */
async function completeOnGrant(
  broker: ConsentBroker,
  consent: PendingConsent,
  connection: ClientConnection | undefined,
  elicitationId: string,
): Promise<void> {
  const outcome = await broker.outcome(consent).catch(() => undefined);
  if (outcome?.kind === 'granted') await connection?.elicitationComplete(elicitationId).catch(() => undefined);
}
