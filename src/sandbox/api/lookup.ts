/**
 * Small shared moves of the handlers: find a record or answer 404, tell staff from visitors,
 * apply a partial update, match a date range.
 */
import { ApiError, notFound } from './api-error.js';
import type { Caller } from './protect.js';

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
export function applyPatch<T extends object>(record: T, patch: Partial<T>): Array<{ field: string; from: unknown; to: unknown }> {
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
export function assertTransition<S extends string>(kind: string, allowed: Readonly<Record<S, readonly S[]>>, from: S, to: S): void {
  if (from === to) return;
  if (!allowed[from].includes(to)) {
    const next = allowed[from].length > 0 ? `from ${from} it can go to ${allowed[from].join(' or ')}` : `${from} is final`;
    throw new ApiError('invalid_state_transition', `a ${kind} cannot go from ${from} to ${to}; ${next}`);
  }
}

export function inRange(timestamp: string, from: unknown, to: unknown): boolean {
  if (typeof from === 'string' && timestamp < normalise(from)) return false;
  if (typeof to === 'string' && timestamp >= normalise(to)) return false;
  return true;
}

/** `2025-03-01` and `2025-03-01T00:00:00+02:00` both become comparable UTC timestamps. */
function normalise(value: string): string {
  return new Date(value.length === 10 ? `${value}T00:00:00Z` : value).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80) || 'untitled';
}
