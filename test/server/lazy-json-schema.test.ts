import { describe, expect, it } from 'vitest';
import { lazyJsonSchema } from '../../src/server/lazy-json-schema.js';

const schema = {
  type: 'object',
  properties: { id: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['id'],
  additionalProperties: false,
};

describe('a lazily compiled tool schema', () => {
  it('checks an object once: the second check of the same object (checkOutput, then the SDK) reads the first verdict', async () => {
    const lazy = lazyJsonSchema(schema);
    const result = { id: 'mem_0001', tags: ['a'] };
    const first = await lazy['~standard'].validate(result);
    expect(first).toEqual({ value: result });
    expect(await lazy['~standard'].validate(result)).toBe(first);
  });

  it('checks another object with the same content afresh, and keeps a refusal for the object refused', async () => {
    const lazy = lazyJsonSchema(schema);
    const first = await lazy['~standard'].validate({ id: 'mem_0001' });
    const other = await lazy['~standard'].validate({ id: 'mem_0001' });
    expect(other).not.toBe(first);
    expect(other).toEqual(first);
    const wrong = { id: 7, extra: true };
    const refused = await lazy['~standard'].validate(wrong);
    expect('issues' in refused && refused.issues?.map((issue) => issue.message).join(' ')).toMatch(/extra/);
    expect(await lazy['~standard'].validate(wrong)).toBe(refused);
  });

  it('checks a value that is not an object each time', async () => {
    const lazy = lazyJsonSchema({ type: 'string' });
    expect(await lazy['~standard'].validate('x')).toEqual({ value: 'x' });
    expect('issues' in (await lazy['~standard'].validate(3))).toBe(true);
  });
});
