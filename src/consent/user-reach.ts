/**
 * Reaching the user for one consent within a tool call: the consent is shown once per flow, on
 * the channel chosen for the call (`reach-step.ts` decides how), then the call waits a bounded
 * time for the flow's outcome. A flow is shown once: later calls join it instead of opening it
 * again.
 */
import { randomUUID } from 'node:crypto';
import { inputRequired, type ServerContext } from '@modelcontextprotocol/server';
import type { Logger } from '../log.js';
import type { ClientConnection, OperationResult } from '../server/index.js';
import { afterElicitation, type ElicitationEnd } from './after-elicitation.js';
import { showingWaitMs, type CallBudget } from './call-budget.js';
import type { ConsentBroker, ConsentReach, PendingConsent } from './consent-broker.js';
import type { ConsentChannel } from './consent-channel.js';
import {
  cancelledResult,
  consentFailedResult,
  deniedResult,
  elicitationMessage,
  foreignFlowResult,
  leavingResult,
  pendingResult,
  waitingMessage,
  type ConsentWording,
  type LeavingReason,
} from './consent-messages.js';
import { progressReporter, waitForConsent, type WaitResult } from './consent-wait.js';
import { reachStep, type ElicitationAction } from './reach-step.js';
import { flowId, type ConsentStateCodec } from './request-state.js';

/** The key of the consent request inside an input-required result. */
export const CONSENT_INPUT_KEY = 'consent';

/** A client's retry of an input-required result: the flow it names, and what the user answered. */
export interface Resumed {
  readonly flow: string;
  readonly action: ElicitationAction;
}

/** A step that reached the user: go on with the call, or answer with this result. */
export type Reached = 'granted' | OperationResult;

/** One tool call, as its consent rounds see it. */
export interface ReachingCall {
  readonly context: ServerContext;
  readonly connection: ClientConnection | undefined;
  readonly wording: ConsentWording;
  readonly channel: ConsentChannel;
  readonly resumed: Resumed | undefined;
  readonly budget: CallBudget;
}

export interface UserReachOptions {
  readonly broker: ConsentBroker;
  readonly codec: ConsentStateCodec;
  /** At least this long between two progress notifications. */
  readonly tickMs: number;
  readonly logger?: Logger | undefined;
  /** Aborted, with a `LeavingReason`, when this process is going away. */
  readonly leaving?: AbortSignal | undefined;
}

export interface UserReach {
  /** Shows the consent on the call's channel (once per flow), then waits a bounded time. */
  reach(consent: PendingConsent, call: ReachingCall): Promise<Reached>;
  /** The consent this process sent in an input-required result under `flow`, while remembered. */
  awaiting(flow: string): PendingConsent | undefined;
}

type ReportProgress = ((waitedMs: number) => void) | undefined;

export function createUserReach(options: UserReachOptions): UserReach {
  const { broker, leaving } = options;
  /** Flows shown to the user, by link, with the MCP session they were shown to. */
  const shown = new Map<string, { readonly owner: string | undefined }>();
  /** Flows sent in an input-required result, by flow id: the client's retry names one of them. */
  const awaitingAnswer = new Map<string, PendingConsent>();
  const leavingReason = (): LeavingReason => (leaving?.reason === 'input-closed' ? 'input-closed' : 'stopped');

  /** Tells the broker how the user learns of the end; a failure to record it never fails the call. */
  async function note(consent: PendingConsent, reach: ConsentReach): Promise<void> {
    await broker
      .noteReach?.(consent, reach)
      .catch((error: unknown) =>
        options.logger?.warn('could not record how the approval reaches the user', { error: String(error) }),
      );
  }

  /** The call stops waiting: whoever approves now must ask again. */
  async function pending(consent: PendingConsent, wording: ConsentWording, waitedMs: number): Promise<OperationResult> {
    await note(consent, 'ask-again');
    return pendingResult(consent, wording, waitedMs);
  }

  /** Answers only once the flow is over, so that the next call starts afresh instead of joining it. */
  async function declined(consent: PendingConsent, wording: ConsentWording): Promise<OperationResult> {
    await broker.decline(consent);
    return deniedResult(consent, wording, 'declined');
  }

  async function reach(consent: PendingConsent, call: ReachingCall): Promise<Reached> {
    const { context, wording } = call;
    const remainingMs = () => remainingOf(call.budget);
    const seen = shown.get(consent.url);
    const step = reachStep({
      channel: call.channel,
      leaving: leaving?.aborted === true,
      shownTo: seen,
      session: context.sessionId,
      answer: call.resumed?.flow === flowId(consent.url) ? call.resumed.action : undefined,
    });
    if (step.kind === 'leaving') return leavingResult(consent, wording, leavingReason());
    if (step.kind === 'foreign-flow') return foreignFlowResult(wording);
    if (seen === undefined) {
      shown.set(consent.url, { owner: context.sessionId });
      void broker.outcome(consent).finally(() => shown.delete(consent.url));
    }
    // One reporter for the whole call, so that `progress` keeps increasing across its steps.
    const reportProgress = progressReporter(context, remainingMs(), waitingMessage(consent, wording));
    switch (step.kind) {
      case 'decline':
        return declined(consent, wording);
      case 'stop-waiting':
        return pending(consent, wording, 0);
      case 'ask-in-result':
        return askInResult(consent, call);
      case 'elicit': {
        const elicited = await elicit(consent, call, reportProgress);
        if (elicited !== 'wait') return elicited;
        break;
      }
      case 'open-browser':
        await broker
          .openBrowser(consent)
          .catch((error: unknown) => options.logger?.warn('the browser could not be opened', { error: String(error) }));
        break;
      case 'wait':
        break;
    }
    const waitMs = showingWaitMs(call.budget, call.channel, seen === undefined, remainingMs());
    const waited = await waitForConsent(broker.outcome(consent), {
      waitMs,
      signal: context.mcpReq.signal,
      ...(leaving === undefined ? {} : { leaving }),
      tickMs: options.tickMs,
      ...(reportProgress === undefined ? {} : { onTick: reportProgress }),
    });
    return answerAfterWait(consent, wording, waited, waitMs);
  }

  /** 2026-07-28: the link goes out in an input-required result; the client's retry names its flow. */
  async function askInResult(consent: PendingConsent, call: ReachingCall): Promise<OperationResult> {
    const flow = flowId(consent.url);
    remember(awaitingAnswer, flow, consent);
    // The client's retry comes back and waits: the approval finishes the call by itself.
    await note(consent, 'call-waits');
    const person = broker.person === undefined ? {} : { owner: broker.person, scopes: consent.scopes };
    const requestState = await options.codec.mint({ v: 1, tool: call.wording.toolName, flow, ...person }, call.context);
    return inputRequired({
      inputRequests: {
        [CONSENT_INPUT_KEY]: inputRequired.elicitUrl({
          message: elicitationMessage(consent, call.wording),
          url: consent.url,
        }),
      },
      requestState,
    });
  }

  /** 2025-11-25: a URL elicitation; `wait` once the user opened the link. */
  async function elicit(
    consent: PendingConsent,
    call: ReachingCall,
    reportProgress: ReportProgress,
  ): Promise<'wait' | OperationResult> {
    const { context, wording } = call;
    const elicitationId = randomUUID();
    // The client may take a while to show the link; say meanwhile what the call waits for.
    reportProgress?.(0);
    await note(consent, 'call-waits');
    let end: ElicitationEnd;
    let failure: unknown;
    try {
      const answer = await context.mcpReq.elicitInput(
        { mode: 'url', elicitationId, url: consent.url, message: elicitationMessage(consent, wording) },
        // The client answers once the user chose; a call waiting for that still counts against the wait.
        {
          signal: leaving === undefined ? context.mcpReq.signal : AbortSignal.any([context.mcpReq.signal, leaving]),
          timeout: Math.max(1, Math.min(remainingOf(call.budget), consent.expiresAt - Date.now())),
        },
      );
      end = { kind: 'answered', action: answer.action };
    } catch (error) {
      failure = error;
      end = { kind: 'failed', requestCancelled: context.mcpReq.signal.aborted, leaving: leaving?.aborted === true };
    }
    switch (afterElicitation(end)) {
      case 'wait':
        void completeOnGrant(consent, call.connection, elicitationId);
        return 'wait';
      case 'decline':
        return declined(consent, wording);
      case 'stop-waiting':
        return pending(consent, wording, 0);
      case 'cancelled':
        return cancelledResult(wording);
      case 'leaving':
        return leavingResult(consent, wording, leavingReason());
      case 'not-shown':
        options.logger?.warn('the client did not show the approval link; it goes into the tool result', {
          error: String(failure),
        });
        return pending(consent, wording, 0);
    }
  }

  /** Tells a 2025-11-25 client that the approval it showed is done. */
  async function completeOnGrant(
    consent: PendingConsent,
    connection: ClientConnection | undefined,
    elicitationId: string,
  ): Promise<void> {
    const outcome = await broker.outcome(consent).catch(() => undefined);
    if (outcome?.kind === 'granted') await connection?.elicitationComplete(elicitationId).catch(() => undefined);
  }

  async function answerAfterWait(
    consent: PendingConsent,
    wording: ConsentWording,
    waited: WaitResult,
    waitMs: number,
  ): Promise<Reached> {
    switch (waited.kind) {
      case 'granted':
      case 'ended':
        return 'granted';
      case 'pending':
        return pending(consent, wording, waitMs);
      case 'denied':
        return deniedResult(consent, wording, 'denied');
      case 'failed':
        return consentFailedResult(wording, waited.error);
      case 'cancelled':
        return cancelledResult(wording);
      case 'leaving':
        return leavingResult(consent, wording, leavingReason());
    }
  }

  return { reach, awaiting: (flow) => awaitingAnswer.get(flow) };
}

function remainingOf(budget: CallBudget): number {
  return Math.max(0, budget.deadline - Date.now());
}

/** A few recent flows are plenty: one is shown at a time, and a retry follows its showing. */
const REMEMBERED_FLOWS = 16;

function remember(flows: Map<string, PendingConsent>, id: string, consent: PendingConsent): void {
  flows.set(id, consent);
  for (const oldest of flows.keys()) {
    if (flows.size <= REMEMBERED_FLOWS) break;
    flows.delete(oldest);
  }
}
