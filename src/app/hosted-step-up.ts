/**
 * A hosted call that needs more permission, on a connection that can take a URL elicitation: the
 * step-up link goes to that person's own session as `elicitation/create` (2025-11-25), the call
 * waits, bounded by `--consent-wait`, until the person's grant covers the scopes, and then runs
 * again in the same call. Elsewhere the link stays in the result for the agent to show.
 */
import { randomUUID } from 'node:crypto';
import type { ServerContext } from '@modelcontextprotocol/server';
import { chooseConsentChannel } from '../consent/index.js';
import type { ExecutionOutcome } from '../executor/index.js';
import { isStepUpRequired } from '../hosted/index.js';
import type { ClientConnection } from '../server/index.js';

/** How often a waiting call looks at the person's grant: the store may be shared, so it is read, not watched. */
const GRANT_POLL_MS = 250;

export interface StepUpInConversation {
  readonly outcome: ExecutionOutcome;
  readonly context: ServerContext;
  readonly connection: ClientConnection | undefined;
  readonly waitMs: number;
}

/** `true` once the person granted what the outcome lacked; `false` when the link stays in the result. */
export async function stepUpInConversation({ outcome, context, connection, waitMs }: StepUpInConversation): Promise<boolean> {
  if (outcome.kind !== 'error' || !isStepUpRequired(outcome.error) || connection === undefined) return false;
  const channel = chooseConsentChannel({ era: connection.era(context), revision: connection.revision(context), clientCapabilities: connection.capabilities(context), browser: false });
  if (channel !== 'elicit-url') return false;
  const stepUp = outcome.error;
  const elicitationId = randomUUID();
  const deadline = Date.now() + waitMs;
  const answer = await context.mcpReq
    .elicitInput(
      { mode: 'url', elicitationId, url: stepUp.stepUpUrl, message: `school-mcp needs your approval at the school for ${stepUp.missing.join(' ')}. Open the link, approve, then come back.` },
      { signal: context.mcpReq.signal, timeout: Math.max(1, waitMs) },
    )
    .catch(() => undefined);
  if (answer?.action !== 'accept') return false;
  while (Date.now() < deadline && !context.mcpReq.signal.aborted) {
    if (await stepUp.isGranted()) {
      await connection.elicitationComplete(elicitationId).catch(() => undefined);
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, GRANT_POLL_MS));
  }
  return false;
}

