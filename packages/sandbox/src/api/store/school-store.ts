/**
 * The school's live state, its clock and its id allocator. Handlers mutate `state` and then call
 * `changed()`, which writes the data file when one is configured.
 */
import type { SchoolState } from './records.js';

export interface StoreConfig {
  now: () => Date;
  /** Called after every committed change (persistence). */
  onChange?: (state: SchoolState) => void;
}

export class SchoolStore {
  readonly state: SchoolState;
  readonly #config: StoreConfig;

  constructor(state: SchoolState, config: StoreConfig) {
    this.state = state;
    this.#config = config;
  }

  /** Now, as the RFC 3339 UTC second the records use. */
  timestamp(): string {
    return toTimestamp(this.#config.now());
  }

  nowDate(): Date {
    return this.#config.now();
  }

  newId(prefix: string): string {
    return allocateId(this.state.id_counters, prefix);
  }

  changed(): void {
    this.#config.onChange?.(this.state);
  }
}

export function allocateId(counters: Record<string, number>, prefix: string): string {
  const next = (counters[prefix] ?? 0) + 1;
  counters[prefix] = next;
  return `${prefix}_${String(next).padStart(4, '0')}`;
}

export function toTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
