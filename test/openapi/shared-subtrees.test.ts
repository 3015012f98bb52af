/**
 * Repeated subtrees written once and restored: values come back deep-equal and byte-identical as
 * JSON, each shared subtree is one table entry that every place refers to, small or single
 * subtrees stay where they are, a value using the reference key is refused, and a table that is
 * not what the writer makes (out of range, a cycle, an entry that is not an object) restores to
 * nothing.
 */
import { describe, expect, it } from 'vitest';
import {
  restoreReferences,
  restoreTable,
  SHARED_REFERENCE_KEY,
  subtreeSharing,
} from '../../src/openapi/shared-subtrees.js';

const metadata = {
  type: 'object',
  description: 'Standard object metadata, repeated in every resource of the document.',
  properties: { name: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } },
};

/** What the catalogue record does: the table and the values as one text, then back. */
function roundTrip(values: readonly unknown[]) {
  const sharing = subtreeSharing();
  for (const value of values) expect(sharing.add(value)).toBe(true);
  const plan = sharing.plan();
  const text = `{"table":[${plan.table.map((entry) => plan.stringify(entry, true)).join(',')}],"values":[${values.map((value) => plan.stringify(value)).join(',')}]}`;
  const stored = JSON.parse(text) as { table: unknown; values: Record<string, unknown> };
  const table = restoreTable(stored.table);
  if (table === undefined) throw new Error('the table did not restore');
  const lengths = values.map((_value, index) => restoreReferences(stored.values, String(index), table));
  return { text, table, restored: values.map((_value, index) => stored.values[index]), lengths };
}

describe('writing repeated subtrees once', () => {
  it('restores every value deep-equal, and as JSON byte-identical, with a subtree that recurs in one table entry', () => {
    const values = [
      { type: 'object', properties: { metadata, spec: { type: 'string' } } },
      { type: 'object', properties: { metadata, status: { type: 'integer' } } },
      [metadata, { type: 'object', properties: { metadata: structuredClone(metadata) } }],
    ];
    const { text, table, restored, lengths } = roundTrip(values);
    expect(restored).toEqual(values);
    expect(restored.map((value) => JSON.stringify(value))).toEqual(values.map((value) => JSON.stringify(value)));
    expect(lengths).toEqual(values.map((value) => JSON.stringify(value).length));
    expect(table.entries).toEqual([metadata]);
    expect(text.split('Standard object metadata').length - 1).toBe(1);
    // Every place it occurred is the one restored object.
    const [first, second, third] = restored as [
      { properties: { metadata: object } },
      { properties: { metadata: object } },
      [object, { properties: { metadata: object } }],
    ];
    expect(first.properties.metadata).toBe(table.entries[0]);
    expect(second.properties.metadata).toBe(table.entries[0]);
    expect(third[0]).toBe(table.entries[0]);
    expect(third[1].properties.metadata).toBe(table.entries[0]);
  });

  it('keeps small subtrees, subtrees that occur once, and the same keys in another order where they are', () => {
    const schema = { type: 'object', description: 'A description long enough to be worth a reference.' };
    const reordered = { description: schema.description, type: 'object' };
    const values = [{ a: { type: 'string' }, b: schema }, { c: { type: 'string' }, d: reordered }, { e: metadata }];
    const { table, restored } = roundTrip(values);
    expect(table.entries).toEqual([]);
    expect(restored.map((value) => JSON.stringify(value))).toEqual(values.map((value) => JSON.stringify(value)));
  });

  it('counts a subtree inside a shared parent once, not once per place the parent occurs', () => {
    const inner = { type: 'object', description: 'Only ever inside the outer schema, which recurs.' };
    const outer = { type: 'object', properties: { inner }, description: 'A schema that recurs in many operations.' };
    const { table, restored } = roundTrip([outer, structuredClone(outer), structuredClone(outer)]);
    expect(table.entries).toEqual([outer]);
    expect(restored).toEqual([outer, outer, outer]);
  });

  it('shares a subtree inside a shared parent when it also occurs elsewhere, listing it before the parent', () => {
    const outer = { type: 'object', properties: { metadata }, description: 'A schema that recurs in many operations.' };
    const { table, restored } = roundTrip([outer, structuredClone(outer), { type: 'array', items: metadata }]);
    expect(table.entries).toEqual([metadata, outer]);
    expect((table.entries[1] as typeof outer).properties.metadata).toBe(table.entries[0]);
    expect(restored[2]).toEqual({ type: 'array', items: metadata });
  });

  it('shares a whole value that recurs, and leaves out properties without a JSON value as JSON.stringify does', () => {
    const value = { ...metadata, left: undefined };
    const { table, restored } = roundTrip([value, structuredClone(metadata)]);
    expect(table.entries).toHaveLength(1);
    expect(restored[0]).toBe(restored[1]);
    expect(JSON.stringify(restored[0])).toBe(JSON.stringify(value));
  });

  it('keeps a property named __proto__ as data, shared or not, without changing a prototype', () => {
    const value = JSON.parse(
      `{"type":"object","properties":{"__proto__":${JSON.stringify(metadata)},"other":${JSON.stringify(metadata)}}}`,
    ) as Record<string, unknown>;
    const { restored } = roundTrip([value, structuredClone(value)]);
    expect(JSON.stringify(restored[0])).toBe(JSON.stringify(value));
    const properties = (restored[0] as { properties: object }).properties;
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.keys(properties)).toEqual(['__proto__', 'other']);
  });

  it(`refuses a value holding an object with the reference key ${SHARED_REFERENCE_KEY}, however deep, and everything after it`, () => {
    const sharing = subtreeSharing();
    expect(sharing.add({ type: 'object', properties: { id: { type: 'string' } } })).toBe(true);
    expect(sharing.add({ type: 'object', properties: { [SHARED_REFERENCE_KEY]: { type: 'string' } } })).toBe(false);
    expect(sharing.add({ type: 'string' })).toBe(false);
    expect(() => sharing.plan()).toThrow();
    const nested = subtreeSharing();
    expect(nested.add({ enum: [{ [SHARED_REFERENCE_KEY]: 0 }] })).toBe(false);
    // As a value, not a name, it is ordinary content.
    const asValue = subtreeSharing();
    expect(asValue.add({ const: SHARED_REFERENCE_KEY, enum: [SHARED_REFERENCE_KEY] })).toBe(true);
  });
});

describe('restoring a table that is not what the writer makes', () => {
  const entry = { type: 'object', description: 'a shared schema' };
  const reference = (index: unknown) => ({ [SHARED_REFERENCE_KEY]: index });

  it('ST-09 restores nothing from an entry that refers to itself, to a later entry (a cycle), or out of range', () => {
    expect(restoreTable([entry, { ...entry, items: reference(0) }])).toBeDefined();
    expect(restoreTable([{ ...entry, items: reference(0) }])).toBeUndefined();
    expect(restoreTable([entry, { items: reference(1) }])).toBeUndefined();
    expect(restoreTable([{ items: reference(1) }, { items: reference(0) }])).toBeUndefined();
    expect(restoreTable([entry, { items: reference(7) }])).toBeUndefined();
  });

  it('ST-09 restores nothing from an entry that is not an object or an array, or is itself a reference', () => {
    for (const bad of ['text', 3, null, true, reference(0)]) expect(restoreTable([entry, bad])).toBeUndefined();
    expect(restoreTable({ 0: entry })).toBeUndefined();
    expect(restoreTable([])).toEqual({ entries: [], lengths: [] });
  });

  it('ST-09 restores nothing from a reference that is not exactly {"$@": <an index>}', () => {
    const table = restoreTable([entry])!;
    for (const bad of [
      reference(1),
      reference(-1),
      reference(0.5),
      reference('0'),
      reference(null),
      { ...reference(0), type: 'string' },
    ]) {
      expect(restoreReferences({ schema: { items: bad } }, 'schema', table)).toBeUndefined();
      expect(restoreReferences({ schema: bad }, 'schema', table)).toBeUndefined();
    }
    const holder = { schema: { items: [reference(0)] } };
    expect(restoreReferences(holder, 'schema', table)).toBe(JSON.stringify({ items: [entry] }).length);
    expect(holder.schema.items[0]).toBe(table.entries[0]);
  });

  it('ST-09 restores nothing, and does not throw, from a value nested deeper than the stack allows', () => {
    const depth = 200_000;
    const nested = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;
    expect(restoreTable([nested])).toBeUndefined();
    expect(restoreReferences({ schema: nested }, 'schema', restoreTable([])!)).toBeUndefined();
  });

  it('ST-09 gives the length a few references stand for, so a reader can refuse a text that expands past any built catalogue', () => {
    const doubling: unknown[] = [{ description: 'x'.repeat(100) }];
    for (let index = 1; index <= 30; index += 1) doubling.push([reference(index - 1), reference(index - 1)]);
    const table = restoreTable(doubling)!;
    expect(table.lengths.at(-1)).toBeGreaterThan(2 ** 30 * 100);
  });
});
