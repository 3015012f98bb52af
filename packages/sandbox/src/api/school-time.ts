/**
 * The school's one date convention: wherever a filter or summary takes a moment, a date
 * (`2026-11-27`, a day in the school's time zone) and an RFC 3339 date-time are accepted alike,
 * and every moment is stored and compared as a UTC timestamp. Pure; time zones come from `Intl`.
 */

/** The zone a new sandbox school is seeded with; `update_school` may change it. */
export const SEED_TIME_ZONE = 'Europe/Berlin';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const DAY_MS = 86_400_000;

/**
 * The published pattern of a "date or date-time" value (RFC 3339 §5.6 full-date or date-time):
 * short, since every date filter of every listing repeats it; `isDateOrDateTime` checks the rest.
 */
export const DATE_OR_DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}(T.+)?$';

export function isDay(value: string): boolean {
  const match = DAY.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A real date-time: the calendar day exists (JavaScript would roll 02-31 into March). */
export function isDateTime(value: string): boolean {
  return DATE_TIME.test(value) && isDay(value.slice(0, 10)) && !Number.isNaN(Date.parse(value));
}

export function isDateOrDateTime(value: string): boolean {
  return isDay(value) || isDateTime(value);
}

/** `2025-03-14T10:30:00+01:00` → `2025-03-14T09:30:00Z`, the form every record uses. */
export function toUtcTimestamp(instantMs: number): string {
  return new Date(instantMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** How far `timeZone` is ahead of UTC at that instant, in milliseconds. */
function zoneOffsetMs(instantMs: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instantMs));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((candidate) => candidate.type === type)?.value);
  const wallClock = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wallClock - Math.floor(instantMs / 1000) * 1000;
}

/** The calendar day, in `timeZone`, that contains the instant. */
export function dayInZone(instantMs: number, timeZone: string): string {
  return new Date(instantMs + zoneOffsetMs(instantMs, timeZone)).toISOString().slice(0, 10);
}

/** The instant a day begins in `timeZone` (its local midnight), DST included. */
export function startOfDay(day: string, timeZone: string): number {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  const guess = midnightUtc - zoneOffsetMs(midnightUtc, timeZone);
  return midnightUtc - zoneOffsetMs(guess, timeZone);
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * A filter bound as a UTC timestamp: a date means the start of that day in the school's time
 * zone, a date-time means itself.
 */
export function filterInstant(value: string, timeZone: string): string {
  return toUtcTimestamp(isDay(value) ? startOfDay(value, timeZone) : Date.parse(value));
}

/** The day, in the school's time zone, that a date or date-time names. */
export function schoolDay(value: string, timeZone: string): string {
  return isDay(value) ? value : dayInZone(Date.parse(value), timeZone);
}

/**
 * A moment written into a record, normalised to UTC. A date alone means the end of that day in the
 * school's time zone when `dayMeans` is `end` (an expiry: "valid through the 27th"), else its start.
 */
export function writtenInstant(value: string, timeZone: string, dayMeans: 'start' | 'end' = 'start'): string {
  if (!isDay(value)) return toUtcTimestamp(Date.parse(value));
  return dayMeans === 'end'
    ? toUtcTimestamp(startOfDay(addDays(value, 1), timeZone) - 1000)
    : toUtcTimestamp(startOfDay(value, timeZone));
}
