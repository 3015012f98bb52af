/** One tool call as its consent rounds see it, and what a round that reached the user came to. */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { ClientConnection, OperationResult } from '../server/index.js';
import type { CallBudget } from './call-budget.js';
import type { ConsentChannel } from './consent-channel.js';
import type { ConsentWording } from './consent-messages.js';
import type { ElicitationAction } from './reach-step.js';

/** A client's retry of an input-required result: the flow it names, and what the user answered. */
export interface Resumed {
  readonly flow: string;
  readonly action: ElicitationAction;
}

/** A step that reached the user: go on with the call, or answer with this result. */
export type Reached = 'granted' | OperationResult;

export interface ReachingCall {
  readonly context: ServerContext;
  readonly connection: ClientConnection | undefined;
  readonly wording: ConsentWording;
  readonly channel: ConsentChannel;
  readonly resumed: Resumed | undefined;
  readonly budget: CallBudget;
}

/** What is left of the call's wait. */
export function remainingMs(call: ReachingCall): number {
  return Math.max(0, call.budget.deadline - Date.now());
}
