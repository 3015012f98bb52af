/**
 * A hosted tool call whose person's grant could not be read because the store was away for a
 * moment. The call did not run at the school (the grant is read before the request, and again
 * only after the school refused it), so the agent is told to call again shortly, in a tool result
 * it can act on rather than a protocol error.
 * @see SECURITY.md SCL-05
 */
import type { ExecutionOutcome } from '../executor/index.js';
import { isStoreUnavailable } from '../hosted/index.js';
import type { OperationResult } from '../server/index.js';

/** Pure: whether a thrown error or a call's outcome is the store not answering. */
export function isStoreOutage(failure: unknown): boolean {
  if (isStoreUnavailable(failure)) return true;
  const outcome = failure as Partial<ExecutionOutcome> | undefined;
  return outcome?.kind === 'error' && isStoreUnavailable(outcome.error);
}

/** Pure: the result the agent gets instead. */
export function storeOutageResult(toolName: string): OperationResult {
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text:
          `${toolName} failed (STORE_UNAVAILABLE).\n` +
          "school-mcp could not reach its grant store for a moment, so it could not use the user's sign-in; the call did not run at the school.\n" +
          `Next step: call ${toolName} again in a few seconds; if it fails the same way for more than a minute, tell the user that school-mcp is having trouble.`,
      },
    ],
  };
}
