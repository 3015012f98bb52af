import { describe, expect, it } from 'vitest';
import { withImpliedTypes } from '../../src/openapi/implied-types.js';
import { meaningfulSegments, sharedPrefixLength } from '../../src/openapi/path-words.js';
import { groupOperations } from '../../src/openapi/grouping.js';

describe('meaningful path words', () => {
  it('drops the static prefix every path shares, and a version namespace', () => {
    const paths = [
      '/ims/oneroster/rostering/v1p2/classes',
      '/ims/oneroster/rostering/v1p2/classes/{id}',
      '/ims/oneroster/rostering/v1p2/users',
    ];
    expect(sharedPrefixLength(paths)).toBe(4);
    expect(meaningfulSegments(paths[1] ?? '', 4)).toEqual(['classes', '{id}']);
    expect(meaningfulSegments('/ims/oneroster/rostering/v1p2/classes')).toEqual(['classes']);
    expect(meaningfulSegments('/api/v1/courses/{id}')).toEqual(['courses', '{id}']);
    expect(meaningfulSegments('/V1/carts/mine')).toEqual(['carts', 'mine']);
    expect(meaningfulSegments('/v1')).toEqual(['v1']);
  });

  it('never takes a placeholder or a whole path as shared', () => {
    expect(sharedPrefixLength(['/{tenant}/a', '/{tenant}/b'])).toBe(0);
    expect(sharedPrefixLength(['/courses', '/courses/{id}'])).toBe(0);
    expect(sharedPrefixLength(['/only'])).toBe(0);
  });
});

describe('toolset grouping', () => {
  const input = (pathTemplate: string, scopes: string[][], tags: string[] = []) => ({
    method: 'get' as const,
    pathTemplate,
    scopeAlternatives: scopes,
    requiredScopes: scopes[0] ?? [],
    tags,
  });

  it('falls back from a single scope group to tags, and from path-like tags to paths', () => {
    const oneScope = groupOperations([
      input('/courses', [['api']], ['Courses']),
      input('/courses/{id}', [['api']], ['Courses']),
      input('/orders', [['api']], ['Orders']),
      input('/orders/{id}', [['api']], ['Orders']),
    ]);
    expect(oneScope).toEqual({ toolsets: ['courses', 'courses', 'orders', 'orders'], source: 'tags' });
    // Paths that are all different group nothing: the single scope group stays.
    const unique = groupOperations([
      input('/things0', [['api']], []),
      input('/things1', [['api']], []),
      input('/things2', [['api']], []),
    ]);
    expect(unique.source).toBe('scopes');
    const pathTags = groupOperations([
      input('/v1/carts/{id}', [], ['carts/{cartId}']),
      input('/v1/orders', [], ['orders/mine']),
    ]);
    expect(pathTags).toEqual({ toolsets: ['carts', 'orders'], source: 'paths' });
  });
});

describe('implied types', () => {
  it('writes out object and array types and drops keywords of another type', () => {
    expect(withImpliedTypes({ properties: { tags: { items: { type: 'string' } } } })).toEqual({
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string' } } },
    });
    expect(withImpliedTypes({ type: 'boolean', uniqueItems: true, description: 'x' })).toEqual({
      type: 'boolean',
      description: 'x',
    });
    expect(withImpliedTypes({ oneOf: [{ properties: {} }], minItems: 1 })).toEqual({
      oneOf: [{ type: 'object', properties: {} }],
      minItems: 1,
    });
  });
});
