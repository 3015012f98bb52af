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
 * Which of these a run's outcome calls for is `next-consent-step.ts`'s decision. How the link
 * reaches the user is chosen per call (see `consent-channel.ts`) and shown by `user-reach.ts`;
 * the wait is bounded, and a flow is shown once: later calls join it instead of opening it
 * again. Every mode runs its calls through here; what differs is the `ConsentBroker` (a local
 * sign-in session, or a hosted person's step-up) and, in the words, where the approval comes
 * back to.
 */
import { inputResponse, type ServerContext } from '@modelcontextprotocol/server';
import { isSchoolMcpError } from '../errors.js';
import { toToolResult, type ExecutionOutcome } from '../executor/index.js';
import type { Logger } from '../log.js';
import type { Operation } from '../openapi/index.js';
import type { OperationCaller, OperationResult } from '../server/index.js';
import { callBudget } from './call-budget.js';
import type { ConsentBroker, PendingConsent } from './consent-broker.js';
import { chooseConsentChannel } from './consent-channel.js';
import {
  consentFailedResult,
  invalidStateResult,
  stepUpExhaustedResult,
  type ConsentWording,
} from './consent-messages.js';
import { PROGRESS_INTERVAL_MS } from './consent-wait.js';
import { nextConsentStep, type ConsentStep } from './next-consent-step.js';
import { createConsentStateCodec, type ConsentStateCodec } from './request-state.js';
import { createStepUpBudget, type StepUpBudget } from './step-up-budget.js';
import type { ReachingCall, Resumed } from './reaching-call.js';
import { CONSENT_INPUT_KEY, createUserReach } from './user-reach.js';

export { CONSENT_INPUT_KEY };

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

/** What a step-up came to: run the operation again, reach the user for a consent, or answer. */
type SteppedUp =
  | { readonly kind: 'run-again' }
  | { readonly kind: 'reach-user'; readonly consent: PendingConsent }
  | { readonly kind: 'answer'; readonly result: OperationResult };

export function createConsentCaller(options: ConsentCallerOptions): OperationCaller {
  const linkWaitMs = options.linkWaitMs ?? options.waitMs;
  const { broker } = options;
  const budget = options.budget ?? createStepUpBudget();
  const codec = options.requestState ?? createConsentStateCodec();
  const users = createUserReach({
    broker,
    codec,
    tickMs: options.progressIntervalMs ?? PROGRESS_INTERVAL_MS,
    logger: options.logger,
    leaving: options.leaving,
  });

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

  /** Asks for the challenged scopes, within the budget of ERR-03. */
  async function stepUp(
    step: Extract<ConsentStep, { kind: 'step-up' }>,
    outcome: ExecutionOutcome,
    wording: ConsentWording,
    stepUps: string[],
  ): Promise<SteppedUp> {
    if (!budget.spend(step.key)) return { kind: 'answer', result: stepUpExhaustedResult(wording, step.scopes) };
    stepUps.push(step.key);
    try {
      const next = await broker.stepUp(step.scopes);
      // Granted already, yet refused: retried within the budget, so a school that keeps refusing stops.
      return next === 'granted' ? { kind: 'run-again' } : { kind: 'reach-user', consent: next };
    } catch (error) {
      return {
        kind: 'answer',
        result: isSchoolMcpError(error) ? consentFailedResult(wording, error) : toToolResult(outcome),
      };
    }
  }

  return async (operation, args, context, connection) => {
    const wording = wordingOf(operation, options);
    const resumed = await resumedConsent(operation, context);
    if (resumed === 'invalid') return invalidStateResult(wording);
    const channel = chooseConsentChannel({
      era: connection?.era(context) ?? 'sessionful',
      revision: connection?.revision(context),
      clientCapabilities: connection?.capabilities(context),
      browser: broker.canOpenBrowser(),
    });
    const call: ReachingCall = {
      context,
      connection,
      wording,
      channel,
      resumed,
      budget: callBudget({ channel, startedAt: Date.now(), waitMs: options.waitMs, linkWaitMs }),
    };
    // The user answered for one flow: how it ended is the answer. Running the operation first
    // would, once that flow is over, open a new one and show it again after a denial.
    // Another instance of the deployment may have shown it; the broker finds it in the shared store.
    const answeredFor =
      resumed === undefined ? undefined : (users.awaiting(resumed.flow) ?? (await broker.rejoin?.(resumed.flow)));
    if (answeredFor !== undefined) {
      const reached = await users.reach(answeredFor, call);
      if (reached !== 'granted') return reached;
    }
    const stepUps: string[] = [];
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const outcome = await options.execute(operation, args, context.mcpReq.signal);
      const pending = outcome.kind === 'error' ? broker.pendingOf(outcome.error) : undefined;
      const step = nextConsentStep({ toolName: operation.toolName, outcome, pending });
      if (step.kind === 'answer') {
        if (step.settlesStepUps) settle(budget, stepUps);
        return toToolResult(outcome);
      }
      const next = step.kind === 'step-up' ? await stepUp(step, outcome, wording, stepUps) : step;
      if (next.kind === 'answer') return next.result;
      if (next.kind === 'run-again') continue;
      const reached = await users.reach(next.consent, call);
      if (reached !== 'granted') return reached;
    }
    return consentFailedResultForRounds(wording);
  };
}

function wordingOf(operation: Operation, options: ConsentCallerOptions): ConsentWording {
  return {
    toolName: operation.toolName,
    school: options.schoolName,
    scopeDescriptions: options.scopeDescriptions,
    ...(options.loginCommand === undefined ? {} : { loginCommand: options.loginCommand }),
    ...(options.demoSchool === true ? { demoSchool: true } : {}),
    ...(options.hosted === true ? { hosted: true } : {}),
  };
}

/** The call went through: the step-ups that led to it no longer count against it (ERR-03). */
function settle(budget: StepUpBudget, stepUps: readonly string[]): void {
  for (const key of stepUps) budget.settle(key);
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
