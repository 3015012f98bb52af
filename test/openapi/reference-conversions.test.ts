/** A body or result that only names a component is converted once per document and handed out as copies. */
import { describe, expect, it } from 'vitest';
import { cloneJson } from '../../src/openapi/json-clone.js';
import { fitsMeter, soleReference } from '../../src/openapi/reference-conversions.js';
import { buildOutputSchema } from '../../src/openapi/output-schema.js';
import { newSchemaMeter, type SchemaBudget } from '../../src/openapi/schema-budget.js';
import { convertSchema } from '../../src/openapi/schema-converter.js';
import { userTextFields } from '../../src/openapi/user-text-fields.js';

function documentRoot() {
  return {
    components: {
      schemas: {
        Money: {
          type: 'object',
          properties: {
            amount: { type: 'integer', example: 4900 },
            currency: { type: 'string', enum: ['EUR', 'USD'] },
          },
        },
        Course: {
          type: 'object',
          description: 'A course.',
          properties: {
            id: { type: 'string', readOnly: true },
            title: { type: 'string' },
            price: { $ref: '#/components/schemas/Money' },
            tags: { type: 'array', items: { type: 'string' } },
          },
          required: ['id', 'title'],
        },
      },
    },
  };
}

const budget: SchemaBudget = { maxDepth: 12, maxNodes: 3_000, maxBytes: 64 * 1024 };
const course = () => ({ $ref: '#/components/schemas/Course' });

describe('the pure parts', () => {
  it('takes only a schema that holds nothing but its reference', () => {
    expect(soleReference({ $ref: '#/a' })).toBe('#/a');
    expect(soleReference({ $ref: '#/a', description: 'Overrides the target.' })).toBeUndefined();
    expect(soleReference({ type: 'string' })).toBeUndefined();
    expect(soleReference([{ $ref: '#/a' }])).toBeUndefined();
    expect(soleReference('#/a')).toBeUndefined();
  });

  it('replays only onto a meter with room for all that the conversion spent', () => {
    const limits = { maxNodes: 10, maxBytes: 100 };
    expect(fitsMeter({ nodes: 4, bytes: 40 }, { nodes: 6, bytes: 60, overBudget: false }, limits)).toBe(true);
    expect(fitsMeter({ nodes: 5, bytes: 40 }, { nodes: 6, bytes: 60, overBudget: false }, limits)).toBe(false);
    expect(fitsMeter({ nodes: 4, bytes: 41 }, { nodes: 6, bytes: 60, overBudget: false }, limits)).toBe(false);
    expect(fitsMeter({ nodes: 0, bytes: 0 }, { nodes: 0, bytes: 0, overBudget: true }, limits)).toBe(false);
  });

  it('copies every object and array of a JSON value', () => {
    const value = { a: [{ b: 1 }, 'c'], d: { e: null } };
    const copy = cloneJson(value);
    expect(copy).toEqual(value);
    expect(copy.a).not.toBe(value.a);
    expect(copy.a[0]).not.toBe(value.a[0]);
    expect(copy.d).not.toBe(value.d);
  });
});

describe('converting a reference again', () => {
  it('gives an equal schema that shares no object with the first, and spends the same', () => {
    const root = documentRoot();
    const [firstMeter, secondMeter] = [newSchemaMeter(), newSchemaMeter()];
    const first = convertSchema(course(), root, 'input', budget, firstMeter);
    const second = convertSchema(course(), root, 'input', budget, secondMeter);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    const properties = (schema: Record<string, unknown>) =>
      schema['properties'] as Record<string, Record<string, unknown>>;
    expect(properties(second)['price']).not.toBe(properties(first)['price']);
    expect(properties(second)['tags']?.['items']).not.toBe(properties(first)['tags']?.['items']);
    expect(secondMeter).toEqual(firstMeter);
    expect(properties(first)['id']).toBeUndefined();
  });

  it('keeps the directions apart: an input leaves read-only properties out, an output keeps them', () => {
    const root = documentRoot();
    convertSchema(course(), root, 'input', budget);
    expect((convertSchema(course(), root, 'output', budget)['properties'] as Record<string, unknown>)['id']).toEqual({
      type: 'string',
    });
  });

  it('API-11 replays nothing onto a meter without room for it: the budget cuts the schema short as a first conversion would', () => {
    const root = documentRoot();
    const fresh = newSchemaMeter();
    convertSchema(course(), root, 'input', budget, fresh);
    const nearlySpent = { nodes: 0, bytes: budget.maxBytes - Math.floor(fresh.bytes / 2), overBudget: false };
    const never = { ...nearlySpent };
    const again = convertSchema(course(), root, 'input', budget, nearlySpent);
    const firstTime = convertSchema(course(), documentRoot(), 'input', budget, never);
    expect(nearlySpent.overBudget).toBe(true);
    expect(again).toEqual(firstTime);
    expect(nearlySpent).toEqual(never);
  });

  it('API-11 remembers no conversion that the budget cut short', () => {
    const root = documentRoot();
    const cut = { nodes: 0, bytes: budget.maxBytes - 10, overBudget: false };
    convertSchema(course(), root, 'input', budget, cut);
    expect(cut.overBudget).toBe(true);
    const meter = newSchemaMeter();
    const unbounded = newSchemaMeter();
    expect(convertSchema(course(), root, 'input', budget, meter)).toEqual(
      convertSchema(course(), documentRoot(), 'input', budget, unbounded),
    );
    expect(meter).toEqual(unbounded);
    expect(meter.overBudget).toBe(false);
  });
});

describe('a component met again deeper inside a schema', () => {
  const listOf = (items: unknown) => ({ type: 'object', properties: { items: { type: 'array', items } } });

  it('comes out as a first conversion would, inside a list as at the top', () => {
    const root = documentRoot();
    convertSchema(course(), root, 'output', budget);
    const [meter, unbounded] = [newSchemaMeter(), newSchemaMeter()];
    expect(convertSchema(listOf(course()), root, 'output', budget, meter)).toEqual(
      convertSchema(listOf(course()), documentRoot(), 'output', budget, unbounded),
    );
    expect(meter).toEqual(unbounded);
  });

  it('API-11 is not replayed where fewer levels are left than it used: the depth limit cuts it as a first conversion would', () => {
    const shallow: SchemaBudget = { ...budget, maxDepth: 2 };
    const root = documentRoot();
    convertSchema(course(), root, 'input', shallow);
    const again = convertSchema(listOf(course()), root, 'input', shallow);
    const firstTime = convertSchema(listOf(course()), documentRoot(), 'input', shallow);
    expect(again).toEqual(firstTime);
    expect(JSON.stringify(again)).toContain('Nested structure not expanded here.');
  });

  it('API-11 is not replayed inside a recursion already at its limit, nor remembered when recursion cut it', () => {
    const recursiveRoot = () => ({
      components: {
        schemas: {
          Node: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
              tag: { $ref: '#/components/schemas/Tag' },
            },
          },
          Tag: { type: 'object', properties: { label: { type: 'string' } } },
        },
      },
    });
    const node = () => ({ $ref: '#/components/schemas/Node' });
    const root = recursiveRoot();
    const first = convertSchema(node(), root, 'output', budget);
    expect(JSON.stringify(first)).toContain('Recursive Node; not expanded further.');
    expect(convertSchema(node(), root, 'output', budget)).toEqual(first);
    expect(convertSchema(listOf(node()), root, 'output', budget)).toEqual(
      convertSchema(listOf(node()), recursiveRoot(), 'output', budget),
    );
  });
});

describe('results that name the same component', () => {
  const responses = () => ({ '200': { description: 'OK', content: { 'application/json': { schema: course() } } } });

  it('get equal output schemas that share no object, and spend the same', () => {
    const root = documentRoot();
    const [firstMeter, secondMeter] = [newSchemaMeter(), newSchemaMeter()];
    const first = buildOutputSchema(responses(), root, firstMeter);
    const second = buildOutputSchema(responses(), root, secondMeter);
    expect(first).toEqual({ type: 'object', properties: expect.objectContaining({ id: { type: 'string' } }) });
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(second?.['properties']).not.toBe(first?.['properties']);
    expect(secondMeter).toEqual(firstMeter);
  });

  it('get the same user-written fields, each in a list of its own', () => {
    const root = documentRoot();
    (root.components.schemas.Course.properties as Record<string, unknown>)['description'] = { type: 'string' };
    const first = userTextFields(responses(), root);
    const second = userTextFields(responses(), root);
    expect(first).toEqual(['description']);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
  });
});
