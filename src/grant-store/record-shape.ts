/**
 * What a record read back from the store must look like before it is used as one of its kind. The
 * store gives back JSON objects, not types: a record written by an earlier version, edited, or put
 * there by something else sharing the store would otherwise become a typed value that is wrong.
 * A record of the wrong shape reads as absent, as one sealed with a key no longer given does
 * (`unreadable-as-absent.ts`): whoever it belonged to starts again (signs in, asks again).
 *
 * Why a few combinators written here and no schema library: the records are small and flat, the
 * checks are type guards the compiler holds against each record's interface (a check that no
 * longer matches its type does not compile), and nothing is added to what a plain install loads.
 * @see SECURITY.md ST-17
 */
import type { GrantStore, StoredValue } from './grant-store.js';

/** Pure: whether a value has the shape of `T`. */
export type Check<T> = (value: unknown) => value is T;

type Checked<C> = C extends Check<infer T> ? T : never;

export const isText: Check<string> = (value): value is string => typeof value === 'string';

export const isFiniteNumber: Check<number> = (value): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** A JSON object: not `null`, not an array. */
export const isObject: Check<StoredValue> = (value): value is StoredValue =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function optional<T>(check: Check<T>): Check<T | undefined> {
  return (value): value is T | undefined => value === undefined || check(value);
}

export function listOf<T>(item: Check<T>): Check<readonly T[]> {
  return (value): value is readonly T[] => Array.isArray(value) && value.every((element) => item(element));
}

export function oneOf<const T extends readonly (string | number)[]>(...allowed: T): Check<T[number]> {
  return (value): value is T[number] => allowed.some((one) => one === value);
}

/**
 * An object with at least these fields, each passing its check; fields not named are kept as they
 * are (a later version may add some, and the engine's payloads carry many school-mcp never reads).
 */
export function objectWith<Fields extends { readonly [field: string]: Check<unknown> }>(
  fields: Fields,
): Check<StoredValue & { readonly [K in keyof Fields]: Checked<Fields[K]> }> {
  const entries = Object.entries(fields);
  return (value): value is StoredValue & { readonly [K in keyof Fields]: Checked<Fields[K]> } =>
    isObject(value) && entries.every(([field, check]) => check(value[field]));
}

/** A kind of record: the namespace it lives in and the shape each of its records has. */
export interface RecordKind<T> {
  readonly namespace: string;
  readonly check: Check<T>;
}

function ofKind<T>(store: GrantStore, kind: RecordKind<T>, value: StoredValue | undefined): T | undefined {
  if (value === undefined) return undefined;
  if (kind.check(value)) return value;
  store.misshapenRecord?.(kind.namespace);
  return undefined;
}

/** The record, when there is one of its kind's shape; one of another shape reads as absent. */
export async function readRecord<T>(store: GrantStore, kind: RecordKind<T>, name: string): Promise<T | undefined> {
  return ofKind(store, kind, await store.read(kind.namespace, name));
}

/** `take` of a record of this kind; one of another shape is taken all the same, and reads as absent. */
export async function takeRecord<T>(store: GrantStore, kind: RecordKind<T>, name: string): Promise<T | undefined> {
  return ofKind(store, kind, await store.take(kind.namespace, name));
}
