import { describe, expect, it } from 'vitest';
import { bridgeProjects, withProjectionArgument } from '../../src/openapi/field-projection.js';

describe('the fields argument', () => {
  it('is offered on reads that answer JSON, unless the school has its own fields parameter', () => {
    const input = { type: 'object', properties: { page: { type: 'integer' } }, additionalProperties: false };
    const withFields = withProjectionArgument(input, 'get', { type: 'object' });
    expect(Object.keys(withFields['properties'] as object)).toEqual(['page', 'fields']);
    expect(withProjectionArgument(input, 'post', { type: 'object' })).toBe(input);
    expect(withProjectionArgument(input, 'get', undefined)).toBe(input);
    const own = { type: 'object', properties: { fields: { type: 'string' } } };
    expect(withProjectionArgument(own, 'get', { type: 'object' })).toBe(own);
    expect(bridgeProjects({ method: 'get', inputSchema: withFields, parameters: [] })).toBe(true);
    expect(
      bridgeProjects({
        method: 'get',
        inputSchema: own,
        parameters: [{ name: 'fields', argument: 'fields', in: 'query', required: false, schema: {} }],
      }),
    ).toBe(false);
  });
});
