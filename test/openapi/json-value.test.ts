/** Copies of untrusted JSON: a property named `__proto__` stays data and never becomes a prototype. */
import { describe, expect, it } from 'vitest';
import { cloneJson } from '../../src/openapi/json-clone.js';
import { setDataProperty } from '../../src/openapi/json-value.js';

describe('copying JSON that names __proto__', () => {
  it('API-08 sets a property named __proto__ as an own data property, leaving the prototype alone', () => {
    const copy: Record<string, unknown> = {};
    setDataProperty(copy, '__proto__', { polluted: true });
    setDataProperty(copy, 'type', 'object');
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'type']);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"type":"object"}');
  });

  it('API-08 clones a parsed document with a __proto__ key into the same JSON, nested objects copied', () => {
    const parsed = JSON.parse('{"properties":{"__proto__":{"type":"string"},"name":{"type":"string"}}}') as Record<
      string,
      unknown
    >;
    const clone = cloneJson(parsed);
    expect(JSON.stringify(clone)).toBe(JSON.stringify(parsed));
    expect(clone['properties']).not.toBe(parsed['properties']);
    expect(Object.getPrototypeOf(clone['properties'])).toBe(Object.prototype);
  });
});
