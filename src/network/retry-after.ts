/**
 * `Retry-After` (RFC 9110 §10.2.3): `HTTP-date / delay-seconds`, read the same way for every
 * request to the school, the sign-in's and the API's alike. Pure.
 */

/**
 * The delay a `Retry-After` value asks for, in milliseconds from `now`; a date in the past gives 0.
 * `undefined` when absent or not of the grammar. delay-seconds is `1*DIGIT`, so "-5" and "1.5"
 * are refused; an HTTP-date (§5.6.7) always names a day or a month, so a value without a letter
 * is refused before `Date.parse`, which would read "1.5" as a date. Of repeated fields the first
 * counts.
 */
export function parseRetryAfter(value: string | readonly string[] | null | undefined, now: number): number | undefined {
  const text = (typeof value === 'string' ? value : value?.[0])?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
