/**
 * The consent-aware caller: runs an operation, and when it cannot run for want of a permission,
 * asks the user for exactly that permission in the conversation, then runs it again in the same
 * call. Two things end in consent:
 * - the sign-in's answer before any request, when the operation's declared scopes (or any scope,
 *   on a first call, or a refused refresh) are not granted: a pending consent for granted ∪
 *   missing, which the session computes;
 * - a 403 `insufficient_scope` from the school (RFC 6750 §3.1): its challenged scopes are
 *   authoritative, the union with what is granted is asked for, and the call is retried, at most
 *   `MAX_STEP_UPS` times per operation and scope set (ERR-03).
 * How the link reaches the user is chosen per call (see `consent-channel.ts`); the wait is
 * bounded, and a flow is shown once: later calls join it instead of opening it again. Every mode
 * runs its calls through here; what differs is the `ConsentBroker` (a local sign-in session, or a
 * hosted person's step-up) and, in the words, where the approval comes back to.
 */
import { randomUUID } from 'node:crypto';
import { inputRequired, inputResponse, type ServerContext } from '@modelcontextprotocol/server';
import { isSchoolMcpError } from '../errors.js';
import { toToolResult, type ExecutionOutcome } from '../executor/index.js';
import type { Logger } from '../log.js';
import type { Operation } from '../openapi/index.js';
import type { ClientConnection, OperationCaller, OperationResult } from '../server/index.js';
import type { ConsentBroker, ConsentReach, PendingConsent } from './consent-broker.js';
import { chooseConsentChannel, type ConsentChannel } from './consent-channel.js';
import {
  cancelledResult,
  consentFailedResult,
  deniedResult,
  elicitationMessage,
  foreignFlowResult,
  invalidStateResult,
  leavingResult,
  pendingResult,
  stepUpExhaustedResult,
  waitingMessage,
  type ConsentWording,
  type LeavingReason,
} from './consent-messages.js';
import { PROGRESS_INTERVAL_MS, progressReporter, waitForConsent } from './consent-wait.js';
import { createConsentStateCodec, flowId, type ConsentStateCodec } from './request-state.js';
import { createStepUpBudget, stepUpKey, type StepUpBudget } from './step-up-budget.js';

/** The key of the consent request inside an input-required result. */
export const CONSENT_INPUT_KEY = 'consent';

export interface ConsentCallerOptions {
  /** Runs the operation once: the executor, with the request's cancellation. */
  readonly execute: (
    operation: Operation,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ) => Promise<ExecutionOutcome>;
  readonly broker: ConsentBroker;
  readonly scopeDescriptions: Readonly<Record<string, string>>;
  /** The school as the user knows it, e.g. its host. */
  readonly schoolName: string;
  /**
   * The longest one call waits for the user, over all its consent rounds, before answering
   * "pending" (`--consent-wait`); the elicitation's own answer counts too.
   */
  readonly waitMs: number;
  /**
   * How much of `waitMs` a call uses when the link can only go into the result (`--link-wait`).
   * The user sees the link only once the call answers, so by default it answers at once; the
   * flow stays open for the next call. Defaults to `waitMs`.
   */
  readonly linkWaitMs?: number;
  readonly requestState?: ConsentStateCodec;
  readonly budget?: StepUpBudget;
  /** At least this long between two progress notifications; `PROGRESS_INTERVAL_MS` by default. */
  readonly progressIntervalMs?: number;
  readonly logger?: Logger;
  /**
   * Aborted, with a `LeavingReason`, when this process is going away (stdin closed, a signal):
   * waiting calls answer at once, saying the link died with the process.
   */
  readonly leaving?: AbortSignal;
  /** `school-mcp login ...` for this school, offered when a link cannot outlive the process. */
  readonly loginCommand?: string;
  /** `--demo`: the school lives inside this process (`ConsentWording.demoSchool`). */
  readonly demoSchool?: boolean;
  /**
   * Hosted mode: the school sends an approval to the server, whichever instance and connection
   * asked, so a pending result promises no process on the user's computer.
   */
  readonly hosted?: boolean;
}

/** Consent rounds of one call: a sign-in, a declared scope, and the step-ups of ERR-03. */
const MAX_ROUNDS = 6;

type Resumed = { readonly flow: string; readonly action: 'accept' | 'decline' | 'cancel' };

/** A step that reached the user: go on with the call, or answer with this result. */
type Reached = 'granted' | OperationResult;

/**
 * A user who calls again after seeing the link has most likely just approved; the flow may still
 * be exchanging the code, so a repeated showing waits this long (within `--consent-wait`) before
 * answering "pending" again.
 */
const LINK_RECHECK_MS = 3_000;

/** When one call stops waiting for the user, and how long the link channel waits on a first showing. */
interface CallBudget {
  readonly deadline: number;
  readonly firstLinkWaitMs: number;
}

export function createConsentCaller(options: ConsentCallerOptions): OperationCaller {
  const linkWaitMs = options.linkWaitMs ?? options.waitMs;
  // `--consent-wait` bounds every call; the link channel uses only part of it (`--link-wait`).
  const budgetOf = (channel: ConsentChannel, startedAt: number): CallBudget => {
    const totalMs =
      channel === 'link' ? Math.min(options.waitMs, Math.max(linkWaitMs, LINK_RECHECK_MS)) : options.waitMs;
    return { deadline: startedAt + totalMs, firstLinkWaitMs: linkWaitMs };
  };
  const { broker } = options;
  const budget = options.budget ?? createStepUpBudget();
  const codec = options.requestState ?? createConsentStateCodec();
  const tickMs = options.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
  /** Flows shown to the user, by link, with the MCP session they were shown to. */
  const shown = new Map<string, { readonly owner: string | undefined }>();
  /** Flows sent in an input-required result, by flow id: the client's retry names one of them. */
  const awaitingAnswer = new Map<string, PendingConsent>();

  async function resumedConsent(
    operation: Operation,
    context: ServerContext,
  ): Promise<Resumed | 'invalid' | undefined> {
    const wire = context.mcpReq.requestState();
    const answer = inputResponse(context.mcpReq.inputResponses, CONSENT_INPUT_KEY);
    if (wire === undefined && answer.kind === 'missing') return undefined;
    if (typeof wire !== 'string') return 'invalid';
    // Bound to the person in hosted mode (HOST-26): a state replayed by anyone else reads as altered.
    const state = await codec.read(wire, context, broker.person);
    if (state === undefined || state.tool !== operation.toolName) return 'invalid';
    return { flow: state.flow, action: answer.kind === 'elicit' ? answer.action : 'cancel' };
  }

  /** Shows the consent on the chosen channel (once per flow), then waits a bounded time. */
  const leavingReason = (): LeavingReason => (options.leaving?.reason === 'input-closed' ? 'input-closed' : 'stopped');

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

  async function reachUser(
    consent: PendingConsent,
    channel: ConsentChannel,
    context: ServerContext,
    connection: ClientConnection | undefined,
    wording: ConsentWording,
    resumed: Resumed | undefined,
    callBudget: CallBudget,
  ): Promise<Reached> {
    const remainingMs = () => Math.max(0, callBudget.deadline - Date.now());
    if (options.leaving?.aborted) return leavingResult(consent, wording, leavingReason());
    const seen = shown.get(consent.url);
    // Over HTTP the user who approves must be the one who asked: a flow stays with its session.
    if (seen !== undefined && seen.owner !== context.sessionId) return foreignFlowResult(wording);
    if (seen === undefined) {
      shown.set(consent.url, { owner: context.sessionId });
      void broker.outcome(consent).finally(() => shown.delete(consent.url));
    }
    const firstShowing = seen === undefined;
    // One reporter for the whole call, so that `progress` keeps increasing across its steps.
    const reportProgress = progressReporter(context, remainingMs(), waitingMessage(consent, wording));

    if (channel === 'input-required') {
      if (resumed?.flow === flowId(consent.url)) {
        if (resumed.action === 'decline') return declined(consent, wording);
        if (resumed.action === 'cancel') return pending(consent, wording, 0);
      } else if (firstShowing) {
        remember(awaitingAnswer, flowId(consent.url), consent);
        // The client's retry comes back and waits: the approval finishes the call by itself.
        await note(consent, 'call-waits');
        const person = broker.person === undefined ? {} : { owner: broker.person, scopes: consent.scopes };
        const requestState = await codec.mint(
          { v: 1, tool: wording.toolName, flow: flowId(consent.url), ...person },
          context,
        );
        return inputRequired({
          inputRequests: {
            [CONSENT_INPUT_KEY]: inputRequired.elicitUrl({
              message: elicitationMessage(consent, wording),
              url: consent.url,
            }),
          },
          requestState,
        });
      }
    } else if (channel === 'elicit-url' && firstShowing) {
      const elicitationId = randomUUID();
      // The client may take a while to show the link; say meanwhile what the call waits for.
      reportProgress?.(0);
      await note(consent, 'call-waits');
      let action: 'accept' | 'decline' | 'cancel';
      try {
        const answer = await context.mcpReq.elicitInput(
          { mode: 'url', elicitationId, url: consent.url, message: elicitationMessage(consent, wording) },
          // The client answers once the user chose; a call waiting for that still counts against the wait.
          {
            signal:
              options.leaving === undefined
                ? context.mcpReq.signal
                : AbortSignal.any([context.mcpReq.signal, options.leaving]),
            timeout: Math.max(1, Math.min(remainingMs(), consent.expiresAt - Date.now())),
          },
        );
        action = answer.action;
      } catch (error) {
        if (context.mcpReq.signal.aborted) return cancelledResult(wording);
        if (options.leaving?.aborted) return leavingResult(consent, wording, leavingReason());
        options.logger?.warn('the client did not show the approval link; it goes into the tool result', {
          error: String(error),
        });
        return pending(consent, wording, 0);
      }
      if (action === 'decline') return declined(consent, wording);
      if (action === 'cancel') return pending(consent, wording, 0);
      void broker
        .outcome(consent)
        .then(async (outcome) => {
          if (outcome.kind === 'granted') await connection?.elicitationComplete(elicitationId);
        })
        .catch(() => undefined);
    } else if (channel === 'browser' && firstShowing) {
      await broker
        .openBrowser(consent)
        .catch((error: unknown) => options.logger?.warn('the browser could not be opened', { error: String(error) }));
    }

    const waitMs =
      channel === 'link' && firstShowing ? Math.min(callBudget.firstLinkWaitMs, remainingMs()) : remainingMs();
    const waited = await waitForConsent(broker.outcome(consent), {
      waitMs,
      signal: context.mcpReq.signal,
      ...(options.leaving === undefined ? {} : { leaving: options.leaving }),
      tickMs,
      ...optionalTick(reportProgress),
    });
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

  /** Answers only once the flow is over, so that the next call starts afresh instead of joining it. */
  async function declined(consent: PendingConsent, wording: ConsentWording): Promise<OperationResult> {
    await broker.decline(consent);
    return deniedResult(consent, wording, 'declined');
  }

  return async (operation, args, context, connection) => {
    const wording: ConsentWording = {
      toolName: operation.toolName,
      school: options.schoolName,
      scopeDescriptions: options.scopeDescriptions,
      ...(options.loginCommand === undefined ? {} : { loginCommand: options.loginCommand }),
      ...(options.demoSchool === true ? { demoSchool: true } : {}),
      ...(options.hosted === true ? { hosted: true } : {}),
    };
    const resumed = await resumedConsent(operation, context);
    if (resumed === 'invalid') return invalidStateResult(wording);
    const channel = chooseConsentChannel({
      era: connection?.era(context) ?? 'sessionful',
      revision: connection?.revision(context),
      clientCapabilities: connection?.capabilities(context),
      browser: broker.canOpenBrowser(),
    });
    const callBudget = budgetOf(channel, Date.now());
    // The user answered for one flow: how it ended is the answer. Running the operation first
    // would, once that flow is over, open a new one and show it again after a denial.
    // Another instance of the deployment may have shown it; the broker finds it in the shared store.
    const answeredFor =
      resumed === undefined ? undefined : (awaitingAnswer.get(resumed.flow) ?? (await broker.rejoin?.(resumed.flow)));
    if (answeredFor !== undefined) {
      const reached = await reachUser(answeredFor, channel, context, connection, wording, resumed, callBudget);
      if (reached !== 'granted') return reached;
    }
    const stepUps: string[] = [];
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const outcome = await options.execute(operation, args, context.mcpReq.signal);
      let consent: PendingConsent;
      if (outcome.kind === 'insufficient_scope') {
        const key = stepUpKey(operation.toolName, outcome.requiredScopes);
        if (!budget.spend(key)) return stepUpExhaustedResult(wording, outcome.requiredScopes);
        stepUps.push(key);
        let next: PendingConsent | 'granted';
        try {
          next = await broker.stepUp(outcome.requiredScopes);
        } catch (error) {
          return isSchoolMcpError(error) ? consentFailedResult(wording, error) : toToolResult(outcome);
        }
        // Granted already, yet refused: retried within the budget, so a school that keeps refusing stops.
        if (next === 'granted') continue;
        consent = next;
      } else {
        const pending = outcome.kind === 'error' ? broker.pendingOf(outcome.error) : undefined;
        if (pending === undefined) {
          if (outcome.kind === 'response' && outcome.status < 400) for (const key of stepUps) budget.settle(key);
          return toToolResult(outcome);
        }
        consent = pending;
      }
      const reached = await reachUser(consent, channel, context, connection, wording, resumed, callBudget);
      if (reached !== 'granted') return reached;
    }
    return consentFailedResultForRounds(wording);
  };
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

function optionalTick(onTick: ((waitedMs: number) => void) | undefined): { onTick?: (waitedMs: number) => void } {
  return onTick === undefined ? {} : { onTick };
}

function consentFailedResultForRounds(wording: ConsentWording): OperationResult {
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: `${wording.toolName} did not run: it kept needing new permissions at ${wording.school} after ${MAX_ROUNDS} approvals, so school-mcp stopped asking.\nNext step: call it again; if this repeats, report it.`,
      },
    ],
  };
}
