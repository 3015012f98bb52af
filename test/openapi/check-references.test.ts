/** The reference check copies only what it changes, and never changes the caller's document. */
import { describe, expect, it } from 'vitest';
import { copyCheckingReferences } from '../../src/openapi/check-references.js';

function documentWithUnresolved() {
  return {
    paths: {
      '/a': {
        get: {
          responses: {
            '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Missing' } } } },
          },
        },
      },
    },
    components: { schemas: { Course: { type: 'object', properties: { id: { type: 'string' } } } } },
    tags: [{ name: 'one' }, { name: 'two', 'x-note': { $ref: 'under an extension, data' } }],
  };
}

describe('copyCheckingReferences', () => {
  it('API-08 replaces an unresolved reference in a copy of the objects above it, leaving the document as it was', () => {
    const document = documentWithUnresolved();
    const before = structuredClone(document);
    const { copy, warnings } = copyCheckingReferences(document);
    expect(document).toEqual(before);
    const schema = (copy['paths'] as typeof document.paths)['/a'].get.responses['200'].content['application/json']
      .schema;
    expect(schema).toEqual({ description: 'Not described by the API document.' });
    expect(warnings).toEqual([
      `Unresolved reference "#/components/schemas/Missing" at #/paths/~1a/get/responses/200/content/application~1json/schema; treated as an empty schema.`,
    ]);
    expect(copy).not.toBe(document);
    expect(copy['components']).toBe(document.components);
    expect(copy['tags']).toBe(document.tags);
  });

  it('hands back the document itself when nothing needs changing', () => {
    const document = { components: documentWithUnresolved().components, paths: {} };
    expect(copyCheckingReferences(document).copy).toBe(document);
  });

  it('drops a `__proto__` key and turns a null-prototype object into a plain one, in copies', () => {
    const parsed = JSON.parse('{"info":{"title":"t","__proto__":{"polluted":true}},"paths":{}}') as Record<
      string,
      unknown
    >;
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { type: 'string' });
    const { copy } = copyCheckingReferences({ ...parsed, components: { schemas: { Bare: bare } } });
    const info = copy['info'] as Record<string, unknown>;
    expect(Object.keys(info)).toEqual(['title']);
    expect(Object.getPrototypeOf(info)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed['info'] as object, '__proto__')).toBe(true);
    const copiedBare = (copy['components'] as { schemas: Record<string, unknown> }).schemas['Bare'];
    expect(Object.getPrototypeOf(copiedBare)).toBe(Object.prototype);
    expect(copiedBare).toEqual({ type: 'string' });
  });

  it('API-08 still refuses an object cycle', () => {
    const node: Record<string, unknown> = { type: 'object' };
    node['properties'] = { self: node };
    expect(() => copyCheckingReferences({ components: { schemas: { Node: node } } })).toThrow(
      /object cycle at #\/components\/schemas\/Node\/properties\/self/,
    );
  });
});
