/**
 * Small shared moves of the handlers: find a record or answer 404, tell staff from visitors,
 * apply a partial update, match a date range.
 */
import { ApiError, notFound } from './api-error.js';
import type { Caller } from './protect.js';
import { filterInstant } from './school-time.js';

export function findOrThrow<T extends { id: string }>(records: readonly T[], id: string, kind: string): T {
  const found = records.find((record) => record.id === id);
  if (!found) throw notFound(kind, id);
  return found;
}

/** A caller with a token is school staff; anonymous visitors see only public records. */
export function isStaff(caller: Caller): boolean {
  return caller.kind === 'token';
}

/** Copies the defined fields of `patch` onto `record`, returning the names that changed. */
export function applyPatch<T extends object>(
  record: T,
  patch: Partial<T>,
): Array<{ field: string; from: unknown; to: unknown }> {
  const changes: Array<{ field: string; from: unknown; to: unknown }> = [];
  for (const [field, to] of Object.entries(patch)) {
    if (to === undefined) continue;
    const from = (record as Record<string, unknown>)[field];
    if (JSON.stringify(from) === JSON.stringify(to)) continue;
    changes.push({ field, from, to });
    (record as Record<string, unknown>)[field] = to;
  }
  return changes;
}

/** Refuses a move that the record's state machine does not allow. */
export function assertTransition<S extends string>(
  kind: string,
  allowed: Readonly<Record<S, readonly S[]>>,
  from: S,
  to: S,
): void {
  if (from === to) return;
  if (!allowed[from].includes(to)) {
    const next =
      allowed[from].length > 0 ? `from ${from} it can go to ${allowed[from].join(' or ')}` : `${from} is final`;
    throw new ApiError('invalid_state_transition', `a ${kind} cannot go from ${from} to ${to}; ${next}`);
  }
}

/** A multi-value state filter: absent matches everything, else the record's state is one of those asked. */
export function inStates(wanted: unknown, state: string): boolean {
  return !Array.isArray(wanted) || wanted.includes(state);
}

/** Half-open `[from, to)` match; each bound is a date (a day in `timeZone`) or a date-time. */
export function inRange(timestamp: string, from: unknown, to: unknown, timeZone: string): boolean {
  if (typeof from === 'string' && timestamp < filterInstant(from, timeZone)) return false;
  if (typeof to === 'string' && timestamp >= filterInstant(to, timeZone)) return false;
  return true;
}

export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 80) || 'untitled'
  );
}
