/**
 * How many registrations a window allows: a count kept in buckets of a fixed length, so that what
 * leaves the window leaves bucket by bucket. A bucket that overlaps the window at all still counts,
 * so the count never says less than what the window holds. Pure.
 * @see SECURITY.md HOST-44
 */
import { isIP } from 'node:net';

export interface WindowCount {
  /** `[bucket start in seconds, registrations in it]`, oldest first. */
  readonly buckets: readonly (readonly [number, number])[];
}

export interface WindowRule {
  /** Registrations allowed within any `windowSeconds`. */
  readonly limit: number;
  readonly windowSeconds: number;
  /** How many buckets the window is kept in. */
  readonly buckets: number;
}

export type WindowVerdict =
  | { readonly admitted: true; readonly count: WindowCount }
  | { readonly admitted: false; readonly retryAfterSeconds: number };

/** One more registration at `nowSeconds`, if the window has room for it. */
export function admitToWindow(count: WindowCount | undefined, rule: WindowRule, nowSeconds: number): WindowVerdict {
  const bucketSeconds = Math.max(1, Math.ceil(rule.windowSeconds / rule.buckets));
  const live = (count?.buckets ?? []).filter(([start]) => start + bucketSeconds > nowSeconds - rule.windowSeconds);
  const total = live.reduce((sum, [, n]) => sum + n, 0);
  if (total >= rule.limit) {
    // Room comes back once enough of the oldest buckets have left the window.
    let remaining = total;
    for (const [start, n] of live) {
      remaining -= n;
      if (remaining < rule.limit)
        return {
          admitted: false,
          retryAfterSeconds: Math.max(1, start + bucketSeconds + rule.windowSeconds - nowSeconds),
        };
    }
  }
  const current = Math.floor(nowSeconds / bucketSeconds) * bucketSeconds;
  const last = live.at(-1);
  const buckets =
    last !== undefined && last[0] === current
      ? [...live.slice(0, -1), [current, last[1] + 1] as const]
      : [...live, [current, 1] as const];
  return { admitted: true, count: { buckets } };
}

/**
 * Whose count a registration goes to: an IPv4 address, or the /64 network of an IPv6 one, which
 * is what one subscriber is usually given (RFC 6177), so that walking through it buys nothing.
 */
export function registrationKeyOf(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.split('::', 2);
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
