/** Implied types written out for strict validators (pure). */
import { describe, expect, it } from 'vitest';
import { withImpliedTypes } from '../../src/openapi/implied-types.js';

describe('withImpliedTypes', () => {
  it('writes out the type that properties or items imply, at every depth, after the existing keys', () => {
    const typed = withImpliedTypes({
      description: 'a member',
      properties: { tags: { items: { properties: { id: { type: 'integer' } } } } },
    });
    expect(JSON.stringify(typed)).toBe(
      JSON.stringify({
        description: 'a member',
        properties: { tags: { items: { properties: { id: { type: 'integer' } }, type: 'object' }, type: 'array' } },
        type: 'object',
      }),
    );
  });

  it('drops the keywords of another type and keeps the order of the rest', () => {
    expect(
      Object.keys(
        withImpliedTypes({ minItems: 1, type: 'boolean', uniqueItems: true, description: 'd', maxLength: 3 }),
      ),
    ).toEqual(['type', 'description']);
    expect(withImpliedTypes({ type: 'integer', minimum: 1, pattern: 'x' })).toEqual({ type: 'integer', minimum: 1 });
    expect(withImpliedTypes({ type: 'string', minLength: 1, minimum: 0 })).toEqual({ type: 'string', minLength: 1 });
  });

  it('leaves combined schemas and ambiguous ones untyped, and does not change its argument', () => {
    const combined = { anyOf: [{ properties: { a: {} } }], items: {} };
    expect(withImpliedTypes(combined)).toEqual({ anyOf: [{ properties: { a: {} }, type: 'object' }], items: {} });
    expect(withImpliedTypes({ properties: {}, items: {} })).toEqual({ properties: {}, items: {} });
    expect(combined).toEqual({ anyOf: [{ properties: { a: {} } }], items: {} });
  });
});
