/** YAML documents: aliases bounded by what they expand to, foreign tags inert, one document, coded errors. */
import { CORE_SCHEMA, constructFromEvents, parseEvents } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parseDocumentText } from '../../src/openapi/index.js';
import { MAX_YAML_ALIAS_NODES, aliasExpansion, neutralizeUnknownTags } from '../../src/openapi/yaml-text.js';

const HEAD = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n";

/** `levels` anchors, each a list of ten aliases of the one before: 10^levels leaves in all. */
function laughs(levels: number): string {
  const lines = ['x-l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let level = 1; level <= levels; level++) lines.push(`x-l${level}: &l${level} [${Array.from({ length: 10 }, () => `*l${level - 1}`).join(', ')}]`);
  return `${HEAD}${lines.join('\n')}\n`;
}

const expansionOf = (text: string) => aliasExpansion(parseEvents(text, {}), text);

describe('YAML aliases', () => {
  it('counts every node an alias stands for, aliases inside it included', () => {
    expect(expansionOf('a: &a [1, 2]\nb: *a\n')).toBe(3);
    expect(expansionOf('a: &a x\nb: [*a, *a]\n')).toBe(2);
    // Each *b is b's own node, its scalar and the three nodes *a expands to.
    expect(expansionOf('a: &a [1, 2]\nb: &b [0, *a]\nc: [*b, *b]\n')).toBe(3 + 2 * 5);
    expect(expansionOf(laughs(2))).toBe(10 * 11 + 10 * (1 + 10 * 11));
    expect(expansionOf('a: {b: [1, {c: 2}]}\n')).toBe(0);
  });

  it('counts an alias of a collection still open (a loop) as one node, leaving the loop to the reference check', () => {
    expect(expansionOf('a: &loop\n  b: *loop\n')).toBe(1);
  });

  it('API-08 refuses nine levels of ten aliases with OPENAPI_SYNTAX before anything walks the billion nodes', () => {
    expect(() => parseDocumentText(laughs(9), { source: 'laughs.yaml' })).toThrow(expect.objectContaining({ code: 'OPENAPI_SYNTAX', message: expect.stringContaining('expands too many aliases') }));
  });

  it('API-08 reads a document whose aliases stay under the bound, each alias the same object as its anchor', () => {
    expect(expansionOf(laughs(3))).toBeLessThan(MAX_YAML_ALIAS_NODES);
    expect(expansionOf(laughs(4))).toBeGreaterThan(MAX_YAML_ALIAS_NODES);
    const { document } = parseDocumentText(laughs(3), { source: 'few.yaml' });
    const [first] = document['x-l1'] as unknown[];
    expect(first).toBe(document['x-l0']);
  });
});

describe('YAML tags', () => {
  it('rewrites a tag outside the core schema to the non-specific tag and says where it was', () => {
    const text = 'a: !!js/function "f() {}"\nb: !!str 5\nc: !custom {d: 1}\n';
    const events = parseEvents(text, {});
    expect(neutralizeUnknownTags(events, text)).toEqual([{ text: '!!js/function', offset: 3 }, { text: '!custom', offset: 40 }]);
    expect(constructFromEvents(events, { source: text, schema: CORE_SCHEMA })).toEqual([{ a: 'f() {}', b: '5', c: { d: 1 } }]);
  });

  it('API-08 keeps a plain scalar under a foreign tag as text, with a warning naming its line', () => {
    const { document, warnings } = parseDocumentText(`${HEAD}x-number: !python/int 123\n`, { source: 't.yaml' });
    expect(document['x-number']).toBe('123');
    expect(warnings).toEqual(['YAML in t.yaml: Unresolved tag !python/int at line 4, column 11; read as plain text.']);
  });
});

describe('YAML text', () => {
  it('refuses two documents in one file', () => {
    expect(() => parseDocumentText(`${HEAD}---\n${HEAD}`, { source: 'two.yaml' })).toThrow(expect.objectContaining({ code: 'OPENAPI_SYNTAX', message: expect.stringContaining('2 YAML documents') }));
  });

  it('names the reason and the place of a syntax error, without quoting the document', () => {
    const failure = (() => {
      try {
        parseDocumentText(`${HEAD}x-a: 1\nx-a: 2\n`, { source: 'dup.yaml' });
      } catch (error) {
        return error as Error & { code?: string };
      }
      return undefined;
    })();
    expect(failure?.code).toBe('OPENAPI_SYNTAX');
    expect(failure?.message).toBe('The OpenAPI document from dup.yaml is neither valid JSON nor valid YAML: duplicated mapping key at line 5, column 1.');
  });

  it('takes empty text as no document, which the shape check names', () => {
    expect(() => parseDocumentText('# nothing here\n', { source: 'empty.yaml' })).toThrow(expect.objectContaining({ code: 'OPENAPI_NOT_AN_OBJECT' }));
  });
});
