/** Long values in listed tool schemas: shortened with a marker, while the schema that checks arguments keeps them whole. */
import { describe, expect, it } from 'vitest';
import { MAX_LISTED_ENUM_VALUES, MAX_LISTED_VALUE_CHARS, withListedValues } from '../../src/openapi/listed-values.js';

const codes = Array.from({ length: 5_000 }, (_, index) => `course_${String(index).padStart(4, '0')}`);

function listedOf(schema: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(withListedValues(schema))) as Record<string, unknown>;
}

describe('values in listed schemas', () => {
  it('API-16 lists a long enum as a count and a sample in the description, at any depth', () => {
    const schema = {
      type: 'object',
      properties: {
        course: { type: 'string', description: 'The course.', enum: codes },
        courses: { type: 'array', items: { anyOf: [{ type: 'string', enum: codes }, { type: 'null' }] } },
      },
    };
    const listed = listedOf(schema) as { properties: Record<string, Record<string, unknown>> };
    expect(listed.properties['course']!['enum']).toBeUndefined();
    expect(listed.properties['course']!['description']).toBe(
      `The course. One of 5,000 values (${codes
        .slice(0, 10)
        .map((code) => JSON.stringify(code))
        .join(', ')} and 4,990 more, not listed).`,
    );
    const inner = (listed.properties['courses']!['items'] as { anyOf: Record<string, unknown>[] }).anyOf[0]!;
    expect(inner['enum']).toBeUndefined();
    expect(inner['description']).toMatch(/^One of 5,000 values/);
    expect(JSON.stringify(listed).length).toBeLessThan(2_000);
    // The schema itself is never changed.
    expect(schema.properties.course.enum).toHaveLength(5_000);
  });

  it('API-16 lists an enum of a few long values by the same rule, and keeps a short enum as it is', () => {
    const long = ['a'.repeat(3_000), 'b'];
    const listed = listedOf({ type: 'string', enum: long });
    expect(listed['enum']).toBeUndefined();
    expect(listed['description']).toContain('One of 2 values');
    expect(String(listed['description']).length).toBeLessThan(200);
    const short = { type: 'string', enum: codes.slice(0, MAX_LISTED_ENUM_VALUES) };
    expect(withListedValues(short)).toBe(short);
  });

  it('API-16 cuts a long default, const or example with a marker, and notes a long object by its size', () => {
    const listed = listedOf({
      type: 'object',
      properties: {
        note: {
          type: 'string',
          default: 'x'.repeat(10_000),
          examples: ['y'.repeat(5_000), 'short', 'a', 'b', 'c', 'd', 'e'],
        },
        config: { type: 'object', default: { payload: 'z'.repeat(8_000) }, example: { small: true } },
        fixed: { const: 'k'.repeat(1_000) },
      },
    }) as { properties: Record<string, Record<string, unknown>> };
    const note = listed.properties['note']!;
    expect(note['default']).toBe(`${'x'.repeat(MAX_LISTED_VALUE_CHARS - 1)}… [9,801 more characters not listed]`);
    expect(note['examples']).toEqual([
      `${'y'.repeat(MAX_LISTED_VALUE_CHARS - 1)}… [4,801 more characters not listed]`,
      'short',
      'a',
      'b',
      'c',
    ]);
    expect(listed.properties['config']!['default']).toBe('[an object of 8,014 characters as JSON, not listed]');
    expect(listed.properties['config']!['example']).toEqual({ small: true });
    expect(String(listed.properties['fixed']!['const'])).toMatch(/^k{199}… \[801 more characters not listed\]$/);
  });

  it('API-16 returns the very schema when nothing is long, and a property named like a keyword is an argument', () => {
    const schema = {
      type: 'object',
      properties: { default: { type: 'string', default: 'open' }, enum: { type: 'string' } },
    };
    expect(withListedValues(schema)).toBe(schema);
  });
});
