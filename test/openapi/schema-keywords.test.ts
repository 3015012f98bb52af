/** A schema's own keywords as the converter carries them, apart from its subschemas. */
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../src/openapi/index.js';
import { convertValueChecks, isKeptPattern, ownKeywords } from '../../src/openapi/schema-keywords.js';

describe('ownKeywords', () => {
  it("writes OpenAPI 3.0's nullable as a type list, null joining the enum, and an example as examples", () => {
    expect(ownKeywords({ type: 'string', nullable: true, enum: ['a', 'b'], example: 'a' })).toEqual({
      type: ['string', 'null'],
      enum: ['a', 'b', null],
      examples: ['a'],
    });
  });

  it("takes Swagger's file as a string and drops types JSON Schema does not know", () => {
    expect(ownKeywords({ type: 'file' })).toEqual({ type: 'string' });
    expect(ownKeywords({ type: ['int32', 'integer'] })).toEqual({ type: 'integer' });
    expect(ownKeywords({ type: 'int32' })).toEqual({});
  });

  it('API-11 leaves out literals, formats and patterns too long to be worth a tool schema, and invalid patterns', () => {
    const own = ownKeywords({
      type: 'string',
      format: 'f'.repeat(201),
      default: 'd'.repeat(3_000),
      enum: Array.from({ length: 2_000 }, (_, index) => `value number ${index}`),
      pattern: '(',
    });
    expect(own).toEqual({ type: 'string' });
  });

  it('keeps at most three short examples, and cuts titles and descriptions to plain text', () => {
    const own = ownKeywords({ examples: [1, 'x'.repeat(3_000), 2, 3, 4], title: 't'.repeat(500), description: 'd' });
    expect(own['examples']).toEqual([1, 2]);
    expect((own['title'] as string).length).toBeLessThanOrEqual(120);
    expect(own['description']).toBe('d');
  });
});

describe('convertValueChecks', () => {
  it("writes 3.0's boolean exclusive bounds as 2020-12's numbers, keeping whole non-negative counts", () => {
    const out: JsonSchema = {};
    convertValueChecks(
      { minimum: 1, exclusiveMinimum: true, maximum: 9, minLength: -1, maxLength: 4, multipleOf: 0 },
      out,
    );
    expect(out).toEqual({ exclusiveMinimum: 1, maximum: 9, maxLength: 4 });
  });
});

describe('isKeptPattern', () => {
  it('keeps a pattern a validator compiles with the u flag, and no long one', () => {
    expect(isKeptPattern('^[a-z]+$')).toBe(true);
    expect(isKeptPattern('\\p{L}+')).toBe(true);
    expect(isKeptPattern('(')).toBe(false);
    expect(isKeptPattern('a'.repeat(1_025))).toBe(false);
  });
});
