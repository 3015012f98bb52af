/** A school's answer against the output schema its document declares: additive changes pass, wrong types are flagged and kept. */
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/openapi/index.js';
import { checkOutput, compileOperationTool } from '../../src/server/operation-tools.js';
import { operationDocument } from '../openapi/fixtures/minimal-document.js';

const course = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'state', 'lecturer'],
  properties: {
    id: { type: 'string' },
    state: { type: 'string', enum: ['draft', 'published'] },
    lecturer: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: { name: { type: 'string' } },
    },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

async function courseTool() {
  const catalogue = await buildCatalogue(
    operationDocument('get', '/course', {
      operationId: 'getCourse',
      responses: { '200': { description: 'OK', content: { 'application/json': { schema: course } } } },
    }),
  );
  return compileOperationTool(catalogue.operations[0]!);
}

function answer(value: Record<string, unknown>) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(value) }], structuredContent: value };
}

describe('checkOutput', () => {
  it('declares the shape only: no closed objects, enums or required lists, map values still typed', async () => {
    const tool = await courseTool();
    expect(tool.operation.outputSchema).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string' },
        state: { type: 'string' },
        lecturer: { type: 'object', properties: { name: { type: 'string' } } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
      },
    });
  });

  it('passes an answer with a new field, a new state and a field left out', async () => {
    const tool = await courseTool();
    const result = answer({
      id: 'crs_1',
      state: 'scheduled',
      lecturer: { name: 'Lin', title: 'Dr.' },
      cohort: 'spring',
    });
    expect(await checkOutput(tool, result)).toBe(result);
    const sparse = answer({ id: 'crs_1' });
    expect(await checkOutput(tool, sparse)).toBe(sparse);
  });

  it('flags an answer of the wrong type as an error, with the data kept as the school sent it', async () => {
    const tool = await courseTool();
    const checked = await checkOutput(tool, answer({ id: 42, state: 'draft', labels: { level: 3 } }));
    expect(checked.isError).toBe(true);
    const content = (checked as { content: { type: string; text?: string }[] }).content;
    const text = content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
    expect(text).toContain('does not match the output schema');
    expect(text).toContain('"id":42');
    expect(checked).not.toHaveProperty('structuredContent');
  });

  it('leaves error results alone', async () => {
    const tool = await courseTool();
    const failure = { isError: true, content: [{ type: 'text' as const, text: 'not_found' }] };
    expect(await checkOutput(tool, failure)).toBe(failure);
  });
});
