/**
 * The answers a call gives when it stops at the user for a consent, and what the broker is told
 * of them (how the user learns of the end, or the user's decline).
 */
import type { Logger } from '../log.js';
import type { OperationResult } from '../server/index.js';
import type { ConsentBroker, ConsentReach, PendingConsent } from './consent-broker.js';
import {
  cancelledResult,
  consentFailedResult,
  deniedResult,
  leavingResult,
  pendingResult,
  type ConsentWording,
  type LeavingReason,
} from './consent-messages.js';
import type { WaitResult } from './consent-wait.js';
import type { Reached } from './reaching-call.js';

export interface ConsentAnswersOptions {
  readonly broker: ConsentBroker;
  readonly logger?: Logger | undefined;
  /** Aborted, with a `LeavingReason`, when this process is going away. */
  readonly leaving?: AbortSignal | undefined;
}

export interface ConsentAnswers {
  /** Tells the broker how the user learns of the end; a failure to record it never fails the call. */
  note(consent: PendingConsent, reach: ConsentReach): Promise<void>;
  /** The call stops waiting: whoever approves now must ask again. */
  pending(consent: PendingConsent, wording: ConsentWording, waitedMs: number): Promise<OperationResult>;
  /** Answers only once the flow is over, so that the next call starts afresh instead of joining it. */
  declined(consent: PendingConsent, wording: ConsentWording): Promise<OperationResult>;
  /** The link dies with this process. */
  leaving(consent: PendingConsent, wording: ConsentWording): OperationResult;
  /** How a bounded wait for the flow ended: go on with the call, or this answer. */
  afterWait(consent: PendingConsent, wording: ConsentWording, waited: WaitResult, waitMs: number): Promise<Reached>;
}

export function createConsentAnswers(options: ConsentAnswersOptions): ConsentAnswers {
  const { broker } = options;
  const leavingReason = (): LeavingReason => (options.leaving?.reason === 'input-closed' ? 'input-closed' : 'stopped');
  const answers: ConsentAnswers = {
    async note(consent, reach) {
      await broker
        .noteReach?.(consent, reach)
        .catch((error: unknown) =>
          options.logger?.warn('could not record how the approval reaches the user', { error: String(error) }),
        );
    },
    async pending(consent, wording, waitedMs) {
      await answers.note(consent, 'ask-again');
      return pendingResult(consent, wording, waitedMs);
    },
    async declined(consent, wording) {
      await broker.decline(consent);
      return deniedResult(consent, wording, 'declined');
    },
    leaving: (consent, wording) => leavingResult(consent, wording, leavingReason()),
    async afterWait(consent, wording, waited, waitMs) {
      switch (waited.kind) {
        case 'granted':
        case 'ended':
          return 'granted';
        case 'pending':
          return answers.pending(consent, wording, waitMs);
        case 'denied':
          return deniedResult(consent, wording, 'denied');
        case 'failed':
          return consentFailedResult(wording, waited.error);
        case 'cancelled':
          return cancelledResult(wording);
        case 'leaving':
          return answers.leaving(consent, wording);
      }
    },
  };
  return answers;
}
