import { describe, expect, it } from 'vitest';
import { argumentSummary } from '../../src/server/argument-summary.js';
import { compactAnnotations, compactInputSchema } from '../../src/server/compact-listing.js';

describe('compactInputSchema', () => {
  it('leaves out the checks at every depth and keeps types, enums, required, descriptions, defaults and examples', () => {
    const schema = {
      type: 'object',
      properties: {
        code: {
          type: 'string',
          description: 'The code.',
          pattern: '^[A-Z]+$',
          minLength: 3,
          maxLength: 32,
          examples: ['SPRING'],
        },
        per_page: { type: 'integer', default: 20, minimum: 1, maximum: 50 },
        course_ids: {
          type: 'array',
          maxItems: 100,
          items: { type: 'string', pattern: '^crs_', enum: ['crs_1', 'crs_2'] },
        },
        // A property named like a keyword is an argument, not a check.
        pattern: { anyOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }] },
      },
      required: ['code'],
      additionalProperties: false,
    };
    expect(compactInputSchema(schema)).toEqual({
      type: 'object',
      properties: {
        code: { type: 'string', description: 'The code.', examples: ['SPRING'] },
        per_page: { type: 'integer', default: 20 },
        course_ids: { type: 'array', items: { type: 'string', enum: ['crs_1', 'crs_2'] } },
        pattern: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['code'],
      additionalProperties: false,
    });
  });
});

describe('compactAnnotations', () => {
  it('API-09 keeps only hints that differ from the MCP defaults, so every hint a host reads is unchanged, and no title', () => {
    expect(
      compactAnnotations({ title: 'List', readOnlyHint: true, idempotentHint: true, openWorldHint: true }),
    ).toEqual({ readOnlyHint: true });
    expect(
      compactAnnotations({
        title: 'Create',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      }),
    ).toEqual({ destructiveHint: false });
    expect(
      compactAnnotations({
        title: 'Update',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      }),
    ).toEqual({ destructiveHint: false, idempotentHint: true });
    // Destructive is the default for a write, so a DELETE lists no destructiveHint at all.
    expect(
      compactAnnotations({
        title: 'Delete',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      }),
    ).toEqual({ idempotentHint: true, openWorldHint: false });
  });
});

describe('argumentSummary', () => {
  it('shows each argument with its type or values, and marks the required ones', () => {
    const schema = {
      type: 'object',
      properties: {
        course_id: { type: 'string' },
        kind: { type: 'string', enum: ['video', 'text'] },
        state: { type: 'array', items: { type: 'string', enum: ['active', 'past_due'] } },
        expires_at: { type: ['string', 'null'] },
        file: { type: 'object', properties: { filename: { type: 'string' } } },
        body: { description: 'Any JSON value.' },
      },
      required: ['course_id', 'kind'],
    };
    expect(argumentSummary(schema)).toEqual([
      'course_id*: string',
      'kind*: video|text',
      'state: active|past_due[]',
      'expires_at: string|null',
      'file: object',
      'body: any',
    ]);
  });

  it('shows a long enum by its type alone', () => {
    const values = Array.from({ length: 20 }, (_, index) => `v${index}`);
    expect(argumentSummary({ type: 'object', properties: { v: { type: 'string', enum: values } } })).toEqual([
      'v: string',
    ]);
  });
});
