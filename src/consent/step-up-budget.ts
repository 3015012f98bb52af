/**
 * How often one operation may ask for more scope after a 403 `insufficient_scope` before the
 * refusal is taken as final. A school that keeps refusing whatever is granted would otherwise
 * make every call loop through consent (MCP 2026-07-28 "Step-Up Authorization Flow": retry "no
 * more than a few times" and track attempts per resource and operation). Pure state, no I/O.
 * @see SECURITY.md ERR-03
 */

export const MAX_STEP_UPS = 3;

export interface StepUpBudget {
  /** Counts one step-up for `key`; `false` once the budget is spent, and from then on. */
  spend(key: string): boolean;
  /** Spent earlier in this session: the operation is refused without asking again. */
  isDenied(key: string): boolean;
  /** The call went through: earlier attempts no longer count against it. */
  settle(key: string): void;
  /** Signing out starts over: a refusal recorded for the old grant says nothing about the next one. */
  clear(): void;
}

/** One operation with one challenged scope set; the set is order-insensitive (RFC 6749 §3.3). */
export function stepUpKey(toolName: string, scopes: readonly string[]): string {
  return `${toolName} ${[...new Set(scopes)].sort().join(' ')}`;
}

export function createStepUpBudget(maxStepUps = MAX_STEP_UPS): StepUpBudget {
  const spent = new Map<string, number>();
  const denied = new Set<string>();
  return {
    spend(key) {
      if (denied.has(key)) return false;
      const count = (spent.get(key) ?? 0) + 1;
      if (count > maxStepUps) {
        spent.delete(key);
        denied.add(key);
        return false;
      }
      spent.set(key, count);
      return true;
    },
    isDenied: (key) => denied.has(key),
    settle(key) {
      spent.delete(key);
    },
    clear() {
      spent.clear();
      denied.clear();
    },
  };
}
