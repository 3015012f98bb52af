/**
 * Which caller endpoints a hosted instance keeps. Each caller (one person through one client
 * connection) has its own endpoint, and the instance holds a bounded number of them: per person, so
 * that one person opening many connections only ever replaces their own, and overall, where a new
 * caller may take the place of an idle one (no request or event stream open: dropping it ends
 * nothing, as its 2025-11-25 sessions live on in the shared store and are copied again on the next
 * request) but never of a busy one; with no idle one to replace, the newcomer is refused. Pure.
 * @see SECURITY.md HOST-46
 */

export interface HeldCaller {
  readonly caller: string;
  readonly person: string;
  /** A request or event stream of this caller is open. */
  readonly busy: boolean;
}

export interface CallerLimits {
  readonly maxCallers: number;
  readonly maxCallersPerPerson: number;
}

export type CallerAdmission =
  | { readonly kind: 'admit'; readonly drop?: string }
  /** `person`: this person holds their whole share, all busy; `server`: every place is busy. */
  | { readonly kind: 'refuse'; readonly reason: 'person' | 'server' };

/** `held` is ordered from least to most recently used; `person` arrives with a caller not in it. */
export function admitCaller(held: readonly HeldCaller[], person: string, limits: CallerLimits): CallerAdmission {
  const own = held.filter((entry) => entry.person === person);
  if (own.length >= limits.maxCallersPerPerson) {
    const idle = own.find((entry) => !entry.busy);
    return idle === undefined ? { kind: 'refuse', reason: 'person' } : { kind: 'admit', drop: idle.caller };
  }
  if (held.length < limits.maxCallers) return { kind: 'admit' };
  const idle = held.find((entry) => !entry.busy);
  return idle === undefined ? { kind: 'refuse', reason: 'server' } : { kind: 'admit', drop: idle.caller };
}
