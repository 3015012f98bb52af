/**
 * A hosted call that needs more permission, on a connection that can take a URL elicitation: the
 * step-up link goes to that person's own session, and the call waits, bounded by
 * `--consent-wait`, until the person's grant covers the scopes, and then runs again in the same
 * logical call. On 2025-11-25 connections the link is pushed as `elicitation/create`; on
 * 2026-07-28 ones, which have no server-to-client requests, it is answered as an input-required
 * result whose sealed state names the person, the tool, the step-up record and the scopes, and the
 * client's retry with the answer resumes the call. Elsewhere the link stays in the result.
 */
import { randomUUID } from 'node:crypto';
import { inputRequired, inputResponse, type ServerContext } from '@modelcontextprotocol/server';
import { CONSENT_INPUT_KEY, chooseConsentChannel, flowId, invalidStateResult, type ConsentStateCodec } from '../consent/index.js';
import type { ExecutionOutcome } from '../executor/index.js';
import { isStepUpRequired, type StepUpRequired } from '../hosted/index.js';
import type { Operation } from '../openapi/index.js';
import type { AccountService, ClientConnection, OperationResult } from '../server/index.js';

/** How often a waiting call looks at the person's grant: the store may be shared, so it is read, not watched. */
const GRANT_POLL_MS = 250;

export interface StepUpInConversation {
  readonly outcome: ExecutionOutcome;
  readonly operation: Operation;
  readonly context: ServerContext;
  readonly connection: ClientConnection | undefined;
  readonly account: AccountService;
  readonly codec: ConsentStateCodec;
  readonly schoolName: string;
  readonly waitMs: number;
}

/**
 * `'granted'` once the person granted what the outcome lacked; an input-required result to answer
 * with on 2026-07-28 connections; `undefined` when the link stays in the result.
 */
export async function stepUpInConversation(input: StepUpInConversation): Promise<'granted' | OperationResult | undefined> {
  const { outcome, context, connection, waitMs } = input;
  if (outcome.kind !== 'error' || !isStepUpRequired(outcome.error) || connection === undefined) return undefined;
  const channel = chooseConsentChannel({ era: connection.era(context), revision: connection.revision(context), clientCapabilities: connection.capabilities(context), browser: false });
  const stepUp = outcome.error;
  if (channel === 'input-required') return askInResult(input, stepUp);
  if (channel !== 'elicit-url') return undefined;
  const elicitationId = randomUUID();
  const deadline = Date.now() + waitMs;
  const answer = await context.mcpReq
    .elicitInput({ mode: 'url', elicitationId, url: stepUp.stepUpUrl, message: stepUpMessage(stepUp) }, { signal: context.mcpReq.signal, timeout: Math.max(1, waitMs) })
    .catch(() => undefined);
  if (answer?.action !== 'accept') return undefined;
  if (!(await waitUntil(stepUp.isGranted, deadline, context.mcpReq.signal))) return undefined;
  await connection.elicitationComplete(elicitationId).catch(() => undefined);
  return 'granted';
}

export interface ResumedStepUp {
  readonly operation: Operation;
  readonly context: ServerContext;
  readonly account: AccountService;
  readonly codec: ConsentStateCodec;
  readonly schoolName: string;
  readonly waitMs: number;
}

/**
 * A retry of a 2026-07-28 input-required step-up: `undefined` when the request carries none;
 * `'granted'` or `'waited'` (the grant did not arrive within the wait) when the person accepted;
 * otherwise the result that ends the call: the state was refused, or the person declined.
 */
export async function resumeStepUp({ operation, context, account, codec, schoolName, waitMs }: ResumedStepUp): Promise<'granted' | 'waited' | OperationResult | undefined> {
  const wire = context.mcpReq.requestState();
  const answer = inputResponse(context.mcpReq.inputResponses, CONSENT_INPUT_KEY);
  if (wire === undefined && answer.kind === 'missing') return undefined;
  const wording = { toolName: operation.toolName, school: schoolName, scopeDescriptions: {} };
  // Bound to the person (HOST-26): a state replayed by someone else reads as altered.
  const owner = (await account.status()).user?.sub ?? '';
  const state = typeof wire === 'string' ? await codec.read(wire, context, owner) : undefined;
  if (state === undefined || state.tool !== operation.toolName || state.scopes === undefined) return invalidStateResult(wording);
  const action = answer.kind === 'elicit' ? answer.action : 'cancel';
  if (action === 'decline') return declinedResult(operation.toolName, schoolName);
  if (action === 'cancel') return cancelledResult(operation.toolName);
  const needed = state.scopes;
  const granted = async () => {
    const scopes = new Set((await account.status()).scopes);
    return needed.every((scope) => scopes.has(scope));
  };
  return (await waitUntil(granted, Date.now() + waitMs, context.mcpReq.signal)) ? 'granted' : 'waited';
}

async function askInResult({ operation, context, account, codec }: StepUpInConversation, stepUp: StepUpRequired): Promise<OperationResult> {
  const owner = (await account.status()).user?.sub ?? '';
  const requestState = await codec.mint({ v: 1, tool: operation.toolName, flow: flowId(stepUp.stepUpUrl), owner, scopes: stepUp.missing }, context);
  return inputRequired({
    inputRequests: { [CONSENT_INPUT_KEY]: inputRequired.elicitUrl({ message: stepUpMessage(stepUp), url: stepUp.stepUpUrl }) },
    requestState,
  });
}

function stepUpMessage(stepUp: StepUpRequired): string {
  return `school-mcp needs your approval at the school for ${stepUp.missing.join(' ')}. Open the link, approve, then come back.`;
}

async function waitUntil(condition: () => Promise<boolean>, deadline: number, signal: AbortSignal): Promise<boolean> {
  while (!signal.aborted) {
    if (await condition()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, GRANT_POLL_MS));
  }
  return false;
}

function declinedResult(toolName: string, school: string): OperationResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${toolName} did not run: the person declined to grant school-mcp the permission it needs at ${school}.\nNext step: tell the user; do not call it again unless they ask.` }],
  };
}

function cancelledResult(toolName: string): OperationResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${toolName} did not run: the approval was dismissed without an answer.\nNext step: call ${toolName} again when the user is ready to approve.` }],
  };
}
