/**
 * JSON values written with each repeated subtree once: a subtree that recurs, and is large enough
 * that a reference is shorter, goes into a table, and every place it occurs holds
 * `{"$@": <its index in the table>}` instead. Pure: the catalogue's encoder (`catalogue-encoder.ts`)
 * puts the table and the values into its text, and its decoder (`catalogue-decoder.ts`) restores them.
 *
 * Subtrees are told apart by content in one pass over the values: a node's key is made of the
 * ids of its property names, strings and child subtrees, so each node is looked at once per
 * occurrence and no subtree is serialised to be compared. A child's id is always lower than its
 * parent's, so the table lists children before parents, and a table entry may refer only to
 * entries before it: a restored table can hold no cycle.
 *
 * Restored, every reference to an entry is the same object. Nothing downstream of the catalogue
 * changes a schema in place (the tool list's simplification, the compact listing, the executor
 * and the SDK's registration all build new objects; test/server/restored-schemas-frozen.test.ts
 * runs them on deep-frozen restored schemas), so sharing is safe.
 */
import { isRecord } from './json-value.js';

/**
 * The key that marks a reference. JSON Schema lets a document use any property name, so a
 * catalogue whose values hold an object with this key anywhere is not written at all (`add` says
 * so, and the catalogue is built from the document on each start, as without a cache) rather than
 * escaped: escaping would add a case to every step of reading a catalogue for a name no real
 * document uses, and costs such a document nothing but the cache.
 */
export const SHARED_REFERENCE_KEY = '$@';

/** A subtree smaller than this is written where it occurs: a reference and its table entry would save too little. */
const MIN_SHARED_BYTES = 48;

/** A distinct subtree: the first object seen with its content, and what it takes as JSON. */
interface Subtree {
  readonly value: object;
  readonly bytes: number;
  /** Its children that are objects or arrays, by id, once per place they occur in it. */
  readonly children: readonly number[];
  /** How often it was added as a whole value. */
  roots: number;
}

export interface SubtreeSharing {
  /** Takes in a value to be written; false when it holds an object with `SHARED_REFERENCE_KEY`. */
  add(value: unknown): boolean;
  /** Once every value was added: which subtrees are shared, and how to write any value. */
  plan(): SharingPlan;
}

export interface SharingPlan {
  /** The table's entries, children before parents; write each with `stringify(entry, true)`. */
  readonly table: readonly object[];
  /**
   * `JSON.stringify(value)`, with every shared subtree inside it written as a reference; the value
   * itself too when it is shared, unless it is being written as its own table entry.
   */
  stringify(value: unknown, asTableEntry?: boolean): string;
}

export function subtreeSharing(): SubtreeSharing {
  const subtrees: Subtree[] = [];
  const idsByContent = new Map<string, number>();
  // Objects already seen: a value the converter reuses is not walked again.
  const idsByObject = new Map<object, number>();
  let refused = false;

  // Strings by id: a long description recurs in hundreds of subtrees, and is measured once.
  const stringIds = new Map<string, number>();
  const stringBytes: number[] = [];
  const stringToken = (text: string): { token: string; bytes: number } => {
    let id = stringIds.get(text);
    if (id === undefined) {
      id = stringBytes.length;
      stringBytes.push(Buffer.byteLength(JSON.stringify(text)));
      stringIds.set(text, id);
    }
    return { token: `s${id}`, bytes: stringBytes[id]! };
  };

  /** The value's token in its parent's key: `#id` for a subtree, `s<id>` for a string, its JSON for another scalar. */
  const tokenOf = (value: unknown, children: number[]): { token: string; bytes: number } | undefined => {
    if (typeof value === 'object' && value !== null) {
      const id = idOf(value);
      if (id === undefined) return undefined;
      children.push(id);
      return { token: `#${id}`, bytes: subtrees[id]!.bytes };
    }
    if (typeof value === 'string') return stringToken(value);
    const token = JSON.stringify(value) ?? 'null';
    return { token, bytes: token.length };
  };

  const idOf = (value: object): number | undefined => {
    const seen = idsByObject.get(value);
    if (seen !== undefined) return seen;
    if (!Array.isArray(value) && Object.hasOwn(value, SHARED_REFERENCE_KEY)) return undefined;
    const children: number[] = [];
    let key: string;
    let bytes = 2;
    if (Array.isArray(value)) {
      key = '[';
      for (const item of value as unknown[]) {
        const child = tokenOf(item, children);
        if (child === undefined) return undefined;
        key += `${child.token},`;
        bytes += child.bytes + 1;
      }
    } else {
      key = '{';
      for (const [name, item] of Object.entries(value)) {
        // As JSON.stringify does: a property without a JSON value is left out.
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
        const child = tokenOf(item, children);
        if (child === undefined) return undefined;
        const nameToken = stringToken(name);
        key += `${nameToken.token}:${child.token},`;
        bytes += nameToken.bytes + 1 + child.bytes + 1;
      }
    }
    // Every entry added a separator; JSON has one fewer than the entries.
    if (key.length > 1) bytes -= 1;
    let id = idsByContent.get(key);
    if (id === undefined) {
      id = subtrees.length;
      subtrees.push({ value, bytes, children, roots: 0 });
      idsByContent.set(key, id);
    }
    idsByObject.set(value, id);
    return id;
  };

  return {
    add(value) {
      if (refused) return false;
      if (typeof value !== 'object' || value === null) return true;
      const id = idOf(value);
      if (id === undefined) {
        refused = true;
        return false;
      }
      subtrees[id]!.roots += 1;
      return true;
    },
    plan() {
      if (refused) throw new Error('a value holding the shared-subtree key cannot be written');
      const tableIndex = sharedIndexes(subtrees);
      const table = subtrees.filter((_subtree, id) => tableIndex[id] !== -1).map((subtree) => subtree.value);
      return {
        table,
        stringify(value, asTableEntry = false) {
          let keepNext = asTableEntry;
          return JSON.stringify(value, (_name, item: unknown) => {
            if (keepNext) {
              keepNext = false;
              return item;
            }
            if (typeof item !== 'object' || item === null) return item;
            const id = idsByObject.get(item);
            const index = id === undefined ? -1 : tableIndex[id]!;
            return index === -1 ? item : { [SHARED_REFERENCE_KEY]: index };
          });
        },
      };
    },
  };
}

/**
 * Each subtree's index in the table, or -1 when it is written where it occurs. A subtree is
 * shared when it would be written at least twice and is large enough; how often it would be
 * written counts a parent that is shared once, not once per place the parent occurs. Parents
 * have higher ids than their children, so one pass from the highest id down settles each parent
 * before its children.
 */
function sharedIndexes(subtrees: readonly Subtree[]): Int32Array {
  const written = new Float64Array(subtrees.length);
  const shared = new Uint8Array(subtrees.length);
  for (let id = subtrees.length - 1; id >= 0; id -= 1) {
    const subtree = subtrees[id]!;
    const times = written[id]! + subtree.roots;
    if (times >= 2 && subtree.bytes >= MIN_SHARED_BYTES) shared[id] = 1;
    const timesEachChild = shared[id] === 1 ? 1 : times;
    for (const child of subtree.children) written[child] = written[child]! + timesEachChild;
  }
  const indexes = new Int32Array(subtrees.length).fill(-1);
  let next = 0;
  for (let id = 0; id < subtrees.length; id += 1) if (shared[id] === 1) indexes[id] = next++;
  return indexes;
}

/** A restored table: each entry with every reference inside it replaced, and its JSON length in characters. */
export interface RestoredTable {
  readonly entries: readonly object[];
  readonly lengths: readonly number[];
}

/**
 * The table as written, its references replaced in place, or undefined when an entry is not an
 * object or an array, is itself a reference, or refers to itself or an entry after it.
 */
export function restoreTable(table: unknown): RestoredTable | undefined {
  if (!Array.isArray(table)) return undefined;
  const entries: object[] = [];
  const lengths: number[] = [];
  const restored: RestoredTable = { entries, lengths };
  for (let index = 0; index < table.length; index += 1) {
    const entry: unknown = table[index];
    if (
      typeof entry !== 'object' ||
      entry === null ||
      (!Array.isArray(entry) && Object.hasOwn(entry, SHARED_REFERENCE_KEY))
    )
      return undefined;
    const length = expandWithin(table as unknown[], index, restored, index);
    if (length === undefined) return undefined;
    entries.push(entry);
    lengths.push(length);
  }
  return restored;
}

/**
 * Replaces, in place, every reference inside `holder[key]` (and the value itself when it is one)
 * by its restored table entry. The JSON length in characters of the value as restored, or
 * undefined when a reference is not exactly `{"$@": <an index of the table>}`.
 */
export function restoreReferences(
  holder: Record<string, unknown>,
  key: string,
  table: RestoredTable,
): number | undefined {
  return expandWithin(holder, key, table, table.entries.length);
}

/** `expandAt`, undefined too when the value is nested deeper than the stack allows (JSON.parse is not so limited). */
function expandWithin(
  holder: Record<string | number, unknown> | unknown[],
  key: string | number,
  table: RestoredTable,
  limit: number,
): number | undefined {
  try {
    return expandAt(holder, key, table, limit);
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

function expandAt(
  holder: Record<string | number, unknown> | unknown[],
  key: string | number,
  table: RestoredTable,
  limit: number,
): number | undefined {
  const value = (holder as Record<string | number, unknown>)[key];
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value).length;
  if (value === null) return 4;
  if (Array.isArray(value)) {
    let length = 1 + Math.max(1, value.length);
    for (let index = 0; index < value.length; index += 1) {
      const child = expandAt(value, index, table, limit);
      if (child === undefined) return undefined;
      length += child;
    }
    return length;
  }
  if (!isRecord(value)) return undefined;
  const names = Object.keys(value);
  if (Object.hasOwn(value, SHARED_REFERENCE_KEY)) {
    const index = value[SHARED_REFERENCE_KEY];
    if (names.length !== 1 || typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0 || index >= limit)
      return undefined;
    // An own data property, even one named `__proto__` (JSON.parse makes it so), is set as data.
    (holder as Record<string | number, unknown>)[key] = table.entries[index];
    return table.lengths[index];
  }
  let length = 1 + Math.max(1, names.length);
  for (const name of names) {
    const child = expandAt(value, name, table, limit);
    if (child === undefined) return undefined;
    length += name.length + 3 + child;
  }
  return length;
}
