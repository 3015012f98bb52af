/**
 * Whether a hosted tool call failed because the store was away for a moment: the grant is read
 * before the request, and again only after the school refused it, so such a call did not run at
 * the school and gets the server's `storeOutageResult` instead.
 * @see SECURITY.md SCL-05
 */
import type { ExecutionOutcome } from '../executor/index.js';
import { isStoreUnavailable } from '../hosted/index.js';

/** Pure: whether a thrown error or a call's outcome is the store not answering. */
export function isStoreOutage(failure: unknown): boolean {
  if (isStoreUnavailable(failure)) return true;
  const outcome = failure as Partial<ExecutionOutcome> | undefined;
  return outcome?.kind === 'error' && isStoreUnavailable(outcome.error);
}
