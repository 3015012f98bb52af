/** Seed times are laid out backwards from one anchor, the start of the current UTC day. */
import { toTimestamp } from '../store/index.js';

const DAY_MS = 86_400_000;

export class SeedClock {
  readonly #anchor: number;

  constructor(now: Date) {
    this.#anchor = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  }

  /** A timestamp `days` days (fractional allowed) before the anchor; negative means after. */
  daysAgo(days: number): string {
    return toTimestamp(new Date(this.#anchor - Math.round((days * DAY_MS) / 1000) * 1000));
  }

  /** Days between the anchor and a seed timestamp. */
  ageInDays(timestamp: string): number {
    return (this.#anchor - Date.parse(timestamp)) / DAY_MS;
  }
}
