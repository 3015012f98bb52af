/**
 * Reaching the user for one consent within a tool call: the consent is shown once per flow, on
 * the channel chosen for the call (`reach-step.ts` decides how), then the call waits a bounded
 * time for the flow's outcome. A flow is shown once: later calls join it instead of opening it
 * again.
 */
import { inputRequired } from '@modelcontextprotocol/server';
import type { Logger } from '../log.js';
import type { OperationResult } from '../server/index.js';
import { showingWaitMs } from './call-budget.js';
import { createConsentAnswers } from './consent-answers.js';
import type { ConsentBroker, PendingConsent } from './consent-broker.js';
import { elicitationMessage, foreignFlowResult, waitingMessage } from './consent-messages.js';
import { progressReporter, waitForConsent } from './consent-wait.js';
import { reachStep } from './reach-step.js';
import { remainingMs, type Reached, type ReachingCall } from './reaching-call.js';
import { flowId, type ConsentStateCodec } from './request-state.js';
import { elicitConsent } from './url-elicitation.js';

/** The key of the consent request inside an input-required result. */
export const CONSENT_INPUT_KEY = 'consent';

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

export function createUserReach(options: UserReachOptions): UserReach {
  const { broker, leaving } = options;
  const answers = createConsentAnswers(options);
  /** Flows shown to the user, by link, with the MCP session they were shown to. */
  const shown = new Map<string, { readonly owner: string | undefined }>();
  /** Flows sent in an input-required result, by flow id: the client's retry names one of them. */
  const awaitingAnswer = new Map<string, PendingConsent>();

  async function reach(consent: PendingConsent, call: ReachingCall): Promise<Reached> {
    const { context, wording } = call;
    const seen = shown.get(consent.url);
    const step = reachStep({
      channel: call.channel,
      leaving: leaving?.aborted === true,
      shownTo: seen,
      session: context.sessionId,
      answer: call.resumed?.flow === flowId(consent.url) ? call.resumed.action : undefined,
    });
    if (step.kind === 'leaving') return answers.leaving(consent, wording);
    if (step.kind === 'foreign-flow') return foreignFlowResult(wording);
    if (seen === undefined) {
      shown.set(consent.url, { owner: context.sessionId });
      void broker.outcome(consent).finally(() => shown.delete(consent.url));
    }
    // One reporter for the whole call, so that `progress` keeps increasing across its steps.
    const reportProgress = progressReporter(context, remainingMs(call), waitingMessage(consent, wording));
    switch (step.kind) {
      case 'decline':
        return answers.declined(consent, wording);
      case 'stop-waiting':
        return answers.pending(consent, wording, 0);
      case 'ask-in-result':
        return askInResult(consent, call);
      case 'elicit': {
        const elicited = await elicitConsent(consent, call, { ...options, answers, reportProgress });
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
    const waitMs = showingWaitMs(call.budget, call.channel, seen === undefined, remainingMs(call));
    const waited = await waitForConsent(broker.outcome(consent), {
      waitMs,
      signal: context.mcpReq.signal,
      ...(leaving === undefined ? {} : { leaving }),
      tickMs: options.tickMs,
      ...(reportProgress === undefined ? {} : { onTick: reportProgress }),
    });
    return answers.afterWait(consent, wording, waited, waitMs);
  }

  /** 2026-07-28: the link goes out in an input-required result; the client's retry names its flow. */
  async function askInResult(consent: PendingConsent, call: ReachingCall): Promise<OperationResult> {
    const flow = flowId(consent.url);
    remember(awaitingAnswer, flow, consent);
    // The client's retry comes back and waits: the approval finishes the call by itself.
    await answers.note(consent, 'call-waits');
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

  return { reach, awaiting: (flow) => awaitingAnswer.get(flow) };
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
