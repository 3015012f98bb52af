/**
 * Open registration (RFC 7591) within bounds: registrations per client address per hour, and a
 * cap on the registrations made within the time an unused one is kept (`unusedSeconds`), which is
 * then the most never-used clients the store can hold. The counts are records of the grant store,
 * changed under its lock, so every instance on one store counts together.
 * @see SECURITY.md HOST-44
 */
import {
  holdingLock,
  isFiniteNumber,
  listOf,
  objectWith,
  readRecord,
  type Check,
  type GrantStore,
  type HoldingLockOptions,
  type RecordKind,
} from '../grant-store/index.js';
import { admitToWindow, registrationKeyOf, type WindowCount, type WindowRule } from './registration-window.js';

export interface RegistrationLimitOptions {
  /** Registrations one address (an IPv6 /64) may make per hour. */
  readonly perAddressPerHour: number;
  /** Registrations allowed within `unusedSeconds`, over all addresses. */
  readonly cap: number;
  /** How long a client that never got a token is kept (the adapter's TTL of a new registration). */
  readonly unusedSeconds: number;
}

/** The defaults of `--registration-limit`, `--registration-cap` and `--registration-expiry`. */
export const DEFAULT_REGISTRATION_LIMITS: RegistrationLimitOptions = {
  perAddressPerHour: 60,
  cap: 10_000,
  unusedSeconds: 24 * 3600,
};

type RegistrationAdmission =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly retryAfterSeconds: number; readonly description: string };

export interface RegistrationLimits {
  admit(clientAddress: string): Promise<RegistrationAdmission>;
}

const COUNTS = 'registration-count';
const ALL = '*';
/** A count changes in milliseconds; a holder that died frees the lock well within a registration's patience. */
const COUNT_LOCK: HoldingLockOptions = { ttlMs: 5_000, waitMs: 8_000, pollMs: 10 };

const isBucket: Check<readonly [number, number]> = (value): value is readonly [number, number] =>
  Array.isArray(value) && value.length === 2 && value.every((part) => isFiniteNumber(part));

/** A window's count as the store gives it back (ST-17); one of another shape counts from nothing. */
export const WINDOW_COUNT_RECORD: RecordKind<WindowCount> = {
  namespace: COUNTS,
  check: objectWith({ buckets: listOf(isBucket) }),
};

export function createRegistrationLimits(
  store: GrantStore,
  options: RegistrationLimitOptions,
  nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
): RegistrationLimits {
  const perAddress: WindowRule = { limit: options.perAddressPerHour, windowSeconds: 3600, buckets: 12 };
  const overall: WindowRule = { limit: options.cap, windowSeconds: options.unusedSeconds, buckets: 24 };
  const count = (name: string, rule: WindowRule) =>
    holdingLock(store, COUNTS, name, COUNT_LOCK, async (fence) => {
      const verdict = admitToWindow(await readRecord(store, WINDOW_COUNT_RECORD, name), rule, nowSeconds());
      if (verdict.admitted)
        await store.writeFenced(COUNTS, name, { ...verdict.count }, fence, { ttlSeconds: rule.windowSeconds });
      return verdict;
    });
  return {
    async admit(clientAddress) {
      const own = await count(`address ${registrationKeyOf(clientAddress)}`, perAddress);
      if (!own.admitted)
        return {
          admitted: false,
          retryAfterSeconds: own.retryAfterSeconds,
          description: `too many registrations from this address; retry in ${own.retryAfterSeconds} s`,
        };
      const all = await count(ALL, overall);
      if (!all.admitted)
        return {
          admitted: false,
          retryAfterSeconds: all.retryAfterSeconds,
          description: `this server takes no more registrations for now; retry in ${all.retryAfterSeconds} s`,
        };
      return { admitted: true };
    },
  };
}
