/** A tool's listed schemas against the schemas its arguments and answers are checked with. */
import { describe, expect, it } from 'vitest';
import { shownSchema, type Operation } from '../../src/openapi/index.js';
import { compactInputSchema } from '../../src/server/compact-listing.js';
import { compileOperationTool } from '../../src/server/operation-tools.js';

const codes = Array.from({ length: 5_000 }, (_, index) => `course_${String(index).padStart(4, '0')}`);

describe('listed schemas', () => {
  it('API-16 lists the shortened schema and checks arguments against the whole one', async () => {
    const inputSchema = {
      type: 'object',
      properties: { course: { type: 'string', enum: codes, default: codes[0] } },
      required: ['course'],
      additionalProperties: false,
    };
    const operation = { toolName: 'enrol', inputSchema, outputSchema: undefined } as unknown as Operation;
    for (const compact of [false, true]) {
      const tool = compileOperationTool(operation, compact);
      const listed = tool.inputSchema['~standard'].jsonSchema.input({ target: 'draft-2020-12' }) as {
        properties: Record<string, Record<string, unknown>>;
      };
      expect(listed.properties['course']!['enum']).toBeUndefined();
      expect(JSON.stringify(listed)).not.toContain('course_4999');
      // A value the listing leaves out is still accepted, and one outside the document's enum refused.
      expect(await tool.inputSchema['~standard'].validate({ course: 'course_4999' })).toEqual({
        value: { course: 'course_4999' },
      });
      const refused = await tool.inputSchema['~standard'].validate({ course: 'course_5000' });
      expect('issues' in refused && refused.issues !== undefined).toBe(true);
    }
  });

  it('lists what describe_operation shows: both take it from shownSchema (long values cut, one type per schema)', () => {
    const inputSchema = {
      type: 'object',
      properties: {
        course: { type: 'string', enum: codes },
        note: { type: ['string', 'null'], maxLength: 40 },
      },
      required: ['course'],
      additionalProperties: false,
    };
    const outputSchema = { type: 'object', properties: { grade: { type: ['integer', 'null'], minimum: 0 } } };
    const operation = { toolName: 'enrol', inputSchema, outputSchema } as unknown as Operation;
    const listedOf = (schema: { '~standard': { jsonSchema: { input: (options: never) => unknown } } }) =>
      schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' } as never);
    const full = compileOperationTool(operation);
    expect(listedOf(full.inputSchema)).toEqual(shownSchema(inputSchema));
    expect(listedOf(full.outputSchema!)).toEqual(shownSchema(outputSchema));
    expect(JSON.stringify(listedOf(full.inputSchema))).not.toContain('"type":["string","null"]');
    const compact = compileOperationTool(operation, true);
    expect(listedOf(compact.inputSchema)).toEqual(shownSchema(compactInputSchema(inputSchema)));
  });
});
