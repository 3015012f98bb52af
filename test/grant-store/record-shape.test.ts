import { describe, expect, it } from 'vitest';
import {
  isFiniteNumber,
  isObject,
  isText,
  listOf,
  objectWith,
  oneOf,
  optional,
  readingUnreadableAsAbsent,
  readRecord,
  takeRecord,
  type RecordKind,
} from '../../src/grant-store/index.js';
import { parseSealedRecord, sealedValueOf } from '../../src/grant-store/sealed-record.js';
import { memoryStore } from './support/memory-store.js';

interface Sample {
  readonly sub: string;
  readonly scopes: readonly string[];
  readonly expiresAt?: number;
  readonly reach?: 'call-waits' | 'ask-again';
}

const SAMPLES: RecordKind<Sample> = {
  namespace: 'sample',
  check: objectWith({
    sub: isText,
    scopes: listOf(isText),
    expiresAt: optional(isFiniteNumber),
    reach: optional(oneOf('call-waits', 'ask-again')),
  }),
};

const wellFormed = { sub: 'usr_ada', scopes: ['openid'], expiresAt: 1_800_000_000, reach: 'ask-again' };

function collectingLogger() {
  const lines: { message: string; fields: Record<string, unknown> | undefined }[] = [];
  return { lines, warn: (message: string, fields?: Record<string, unknown>) => lines.push({ message, fields }) };
}

describe('the checks a record passes before it is used as its kind', () => {
  it('ST-17 takes a well-formed record as it is, fields it does not name included', () => {
    expect(SAMPLES.check(wellFormed)).toBe(true);
    expect(SAMPLES.check({ sub: 'usr_ada', scopes: [] })).toBe(true);
    expect(SAMPLES.check({ ...wellFormed, addedLater: { any: 'thing' } })).toBe(true);
  });

  it.each([
    ['a missing field', { scopes: ['openid'] }],
    ['a field of the wrong type', { ...wellFormed, sub: 42 }],
    ['a list with an element of the wrong type', { ...wellFormed, scopes: ['openid', 7] }],
    ['an optional field of the wrong type', { ...wellFormed, expiresAt: '1800000000' }],
    ['a value outside its list', { ...wellFormed, reach: 'somewhere' }],
    ['extra nesting', { value: wellFormed }],
    ['a list instead of an object', [wellFormed]],
    ['null', null],
    ['a string', 'usr_ada'],
  ])('ST-17 refuses %s', (_what, value) => {
    expect(SAMPLES.check(value)).toBe(false);
  });

  it('ST-17 counts neither NaN nor Infinity as a number, nor an array as an object', () => {
    expect(isFiniteNumber(Number.NaN)).toBe(false);
    expect(isFiniteNumber(Number.POSITIVE_INFINITY)).toBe(false);
    expect(isObject([])).toBe(false);
    expect(isObject({})).toBe(true);
  });
});

describe('reading a record as its kind', () => {
  it('ST-17 reads and takes a well-formed record as it was written', async () => {
    const store = memoryStore();
    await store.write('sample', 'ada', wellFormed);
    expect(await readRecord(store, SAMPLES, 'ada')).toEqual(wellFormed);
    expect(await takeRecord(store, SAMPLES, 'ada')).toEqual(wellFormed);
    expect(store.has('sample', 'ada')).toBe(false);
    expect(await readRecord(store, SAMPLES, 'ada')).toBeUndefined();
  });

  it('ST-17 reads a record of the wrong shape as absent, and a take removes it all the same', async () => {
    const store = memoryStore();
    store.put('sample', 'ada', { sub: 'usr_ada', scopes: 'openid' });
    expect(await readRecord(store, SAMPLES, 'ada')).toBeUndefined();
    expect(store.has('sample', 'ada')).toBe(true);
    expect(await takeRecord(store, SAMPLES, 'ada')).toBeUndefined();
    expect(store.has('sample', 'ada')).toBe(false);
  });

  it('ST-17 warns once per namespace through the store that reads unreadable records as absent, never with a name or content', async () => {
    const logger = collectingLogger();
    const store = readingUnreadableAsAbsent(memoryStore(), logger);
    await store.write('sample', 'usr_ada', { sub: 'usr_ada', scopes: 'secret-scope-text' });
    await store.write('sample', 'usr_bob', { sub: 42, scopes: [] });
    await store.write('other-sample', 'usr_ada', { nested: { sub: 'usr_ada' } });
    expect(await readRecord(store, SAMPLES, 'usr_ada')).toBeUndefined();
    expect(await readRecord(store, SAMPLES, 'usr_bob')).toBeUndefined();
    expect(await readRecord(store, { ...SAMPLES, namespace: 'other-sample' }, 'usr_ada')).toBeUndefined();
    expect(logger.lines.map((line) => line.fields?.['namespace'])).toEqual(['sample', 'other-sample']);
    const written = JSON.stringify(logger.lines);
    expect(written).not.toContain('usr_');
    expect(written).not.toContain('secret-scope-text');
  });

  it('ST-17 says nothing of a well-formed or an absent record', async () => {
    const logger = collectingLogger();
    const store = readingUnreadableAsAbsent(memoryStore(), logger);
    await store.write('sample', 'ada', wellFormed);
    expect(await readRecord(store, SAMPLES, 'ada')).toEqual(wellFormed);
    expect(await readRecord(store, SAMPLES, 'nobody')).toBeUndefined();
    expect(logger.lines).toEqual([]);
  });
});

describe('what an opened seal holds', () => {
  it('ST-17 is the record under `value`, as the stores write it', () => {
    expect(sealedValueOf(JSON.stringify({ value: wellFormed }))).toEqual(wellFormed);
  });

  it.each([
    ['a value that is not an object', JSON.stringify({ value: 'text' })],
    ['a list', JSON.stringify({ value: [wellFormed] })],
    ['no value at all', JSON.stringify(wellFormed)],
    ['null', 'null'],
    ['text that is not JSON', '{"value":'],
  ])('ST-17 is nothing for %s', (_what, plaintext) => {
    expect(sealedValueOf(plaintext)).toBeUndefined();
  });

  it('ST-17 reads an envelope only with every field of its type', () => {
    const envelope = { version: 1, keyId: 'k1', nonce: 'n', tag: 't', ciphertext: 'c', expiresAt: 1, fence: 2 };
    expect(parseSealedRecord(JSON.stringify(envelope))).toEqual(envelope);
    expect(parseSealedRecord(JSON.stringify({ ...envelope, fence: 0 }))).toBeUndefined();
    expect(parseSealedRecord(JSON.stringify({ ...envelope, version: 2 }))).toBeUndefined();
    expect(parseSealedRecord(JSON.stringify({ ...envelope, tag: undefined }))).toBeUndefined();
    expect(parseSealedRecord('[]')).toBeUndefined();
  });
});
