/** YAML documents: aliases bounded by what they expand to, foreign tags inert, one document, coded errors. */
import { CORE_SCHEMA, constructFromEvents, parseEvents } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { buildCatalogue, parseDocumentText } from '../../src/openapi/index.js';
import { MAX_YAML_ALIAS_NODES, aliasReach, neutralizeUnknownTags, tagWarnings } from '../../src/openapi/yaml-text.js';

const HEAD = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n";

/** `levels` anchors, each a list of ten aliases of the one before: 10^levels leaves in all. */
function laughs(levels: number): string {
  const lines = ['x-l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let level = 1; level <= levels; level++)
    lines.push(`x-l${level}: &l${level} [${Array.from({ length: 10 }, () => `*l${level - 1}`).join(', ')}]`);
  return `${HEAD}${lines.join('\n')}\n`;
}

const reachOf = (text: string) => aliasReach(parseEvents(text, {}), text);
const expansionOf = (text: string) => reachOf(text).addedNodes;

describe('YAML aliases', () => {
  it('counts every node an alias stands for, aliases inside it included', () => {
    expect(expansionOf('a: &a [1, 2]\nb: *a\n')).toBe(3);
    expect(expansionOf('a: &a x\nb: [*a, *a]\n')).toBe(2);
    // Each *b is b's own node, its scalar and the three nodes *a expands to.
    expect(expansionOf('a: &a [1, 2]\nb: &b [0, *a]\nc: [*b, *b]\n')).toBe(3 + 2 * 5);
    expect(expansionOf(laughs(2))).toBe(10 * 11 + 10 * (1 + 10 * 11));
    expect(expansionOf('a: {b: [1, {c: 2}]}\n')).toBe(0);
  });

  it('API-08 refuses an alias inside the collection it names, before anything walks the loop', () => {
    expect(reachOf('a: &loop\n  b: *loop\n').loops).toBe(true);
    expect(reachOf('a: &x [1]\nb: *x\n').loops).toBe(false);
    // Anchored again, the name stands for the newer collection, which is still open.
    expect(reachOf('a: &x [1]\nb: &x [*x]\n').loops).toBe(true);
    expect(() => parseDocumentText(`${HEAD}x-a: &loop\n  b: *loop\n`, { source: 'loop.yaml' })).toThrow(
      expect.objectContaining({ code: 'OPENAPI_CYCLIC_DOCUMENT' }),
    );
  });

  it('measures depth as JSON does, with aliases expanded', () => {
    expect(reachOf('a: 1\n').depth).toBe(1);
    expect(reachOf('a: [[1]]\n').depth).toBe(3);
    expect(reachOf('a: &x [[1]]\nb: [[*x]]\n').depth).toBe(5);
    expect(reachOf('42\n').depth).toBe(0);
  });

  it('API-12 refuses aliases that nest past the depth bound, and accepts the deepest text allowed', () => {
    const chain = Array.from({ length: 40 }, (_, level) =>
      level === 0 ? 'x-l0: &l0 [1]' : `x-l${level}: &l${level} [[[[*l${level - 1}]]]]`,
    );
    expect(() => parseDocumentText(`${HEAD}${chain.join('\n')}\n`, { source: 'deep-aliases.yaml' })).toThrow(
      expect.objectContaining({ code: 'OPENAPI_TOO_DEEP' }),
    );
    const deepest = `${HEAD}x-deep: ${'['.repeat(127)}1${']'.repeat(127)}\n`;
    expect(() => parseDocumentText(deepest, { source: 'deepest.yaml' })).not.toThrow();
  });

  it('API-08 counts the text of an aliased scalar, so that aliases of one long string are bounded too', () => {
    expect(reachOf('a: &s hello\nb: [*s, *s]\n')).toMatchObject({ addedNodes: 2, addedCharacters: 10 });
    const long = 'y'.repeat(100_000);
    const text = `${HEAD}x-s: &s ${long}\nx-many:\n${'  - *s\n'.repeat(60)}`;
    expect(() => parseDocumentText(text, { source: 'long.yaml' })).toThrow(
      expect.objectContaining({ code: 'OPENAPI_SYNTAX', message: expect.stringContaining('expands too many aliases') }),
    );
  });

  it('API-08 refuses nine levels of ten aliases with OPENAPI_SYNTAX before anything walks the billion nodes', () => {
    expect(() => parseDocumentText(laughs(9), { source: 'laughs.yaml' })).toThrow(
      expect.objectContaining({ code: 'OPENAPI_SYNTAX', message: expect.stringContaining('expands too many aliases') }),
    );
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
    expect(neutralizeUnknownTags(events, text)).toEqual([
      { text: '!!js/function', offset: 3 },
      { text: '!custom', offset: 40 },
    ]);
    expect(constructFromEvents(events, { source: text, schema: CORE_SCHEMA })).toEqual([
      { a: 'f() {}', b: '5', c: { d: 1 } },
    ]);
  });

  it('says where each of the first foreign tags is in one pass, quotes a long tag in part, and counts the rest', () => {
    const text = '- !x a\n'.repeat(50_000) + `- !${'v'.repeat(500)} b\n`;
    const events = parseEvents(text, {});
    const warnings = tagWarnings(neutralizeUnknownTags(events, text), text, 's.yaml');
    expect(warnings).toHaveLength(11);
    expect(warnings[0]).toBe('YAML in s.yaml: Unresolved tag !x at line 1, column 3; read as plain text.');
    expect(warnings[9]).toBe('YAML in s.yaml: Unresolved tag !x at line 10, column 3; read as plain text.');
    expect(warnings[10]).toBe('YAML in s.yaml: 49991 more unresolved tags, each read as plain text.');
    expect(tagWarnings([{ text: `!${'v'.repeat(500)}`, offset: 0 }], text, 's.yaml')[0]).toContain(
      `!${'v'.repeat(59)}… at line 1`,
    );
  });

  it('API-08 keeps a plain scalar under a foreign tag as text, with a warning naming its line', () => {
    const { document, warnings } = parseDocumentText(`${HEAD}x-number: !python/int 123\n`, { source: 't.yaml' });
    expect(document['x-number']).toBe('123');
    expect(warnings).toEqual(['YAML in t.yaml: Unresolved tag !python/int at line 4, column 11; read as plain text.']);
  });
});

describe('YAML merge keys', () => {
  const valueOf = (body: string) => parseDocumentText(`${HEAD}${body}`, { source: 'merge.yaml' }).document;

  it('merges a mapping into the one that names it, the keys written beside `<<` winning', () => {
    const document = valueOf(
      'x-base: &base {id: {type: string}, title: {type: string}}\nx-course:\n  <<: *base\n  title: {type: integer}\n  archived: {type: boolean}\n',
    );
    expect(document['x-course']).toEqual({
      id: { type: 'string' },
      title: { type: 'integer' },
      archived: { type: 'boolean' },
    });
    expect(Object.keys(document['x-course'] as object)).not.toContain('<<');
  });

  it('merges a list of mappings, the first one winning, and the merge written as a tag', () => {
    const document = valueOf(
      'x-a: &a {k: a, only-a: 1}\nx-b: &b {k: b, only-b: 2}\nx-both: {<<: [*a, *b]}\nx-tagged: {!!merge <<: *b}\n',
    );
    expect(document['x-both']).toEqual({ k: 'a', 'only-a': 1, 'only-b': 2 });
    expect(document['x-tagged']).toEqual({ k: 'b', 'only-b': 2 });
    expect(
      parseDocumentText(`${HEAD}x-a: &a {k: a}\nx-t: {!!merge <<: *a}\n`, { source: 'tagged.yaml' }).warnings,
    ).toEqual([]);
  });

  it('gives merged properties to the schema an operation lists, where the core schema alone made a property named <<', async () => {
    const text = `openapi: 3.0.3
info: {title: Merge, version: '1'}
paths:
  /courses/{id}:
    get:
      operationId: getCourse
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: A course.
          content:
            application/json:
              schema:
                type: object
                properties:
                  <<: &common {id: {type: string}, title: {type: string}}
                  archived: {type: boolean}
`;
    const catalogue = await buildCatalogue(parseDocumentText(text, { source: 'merge.yaml' }).document);
    const output = catalogue.byName.get('get_course')?.outputSchema as
      | { properties: Record<string, unknown> }
      | undefined;
    expect(Object.keys(output?.properties ?? {}).sort()).toEqual(['archived', 'id', 'title']);
  });

  it('API-08 reads !!merge anywhere but on the key << as a foreign tag: inert, with a warning', () => {
    const parsed = parseDocumentText(`${HEAD}x-map: !!merge {a: 1}\nx-text: !!merge hello\n`, {
      source: 'stray-merge.yaml',
    });
    expect(parsed.document['x-map']).toEqual({ a: 1 });
    expect(parsed.document['x-text']).toBe('hello');
    expect(parsed.warnings).toEqual([
      expect.stringContaining('Unresolved tag !!merge at line 4'),
      expect.stringContaining('Unresolved tag !!merge at line 5'),
    ]);
  });

  it('API-08 refuses a merge of something other than mappings with OPENAPI_SYNTAX', () => {
    expect(() => valueOf('x-list: &list [1, 2]\nx-bad: {<<: *list}\n')).toThrow(
      expect.objectContaining({ code: 'OPENAPI_SYNTAX' }),
    );
  });
});

describe('YAML text', () => {
  it('refuses two documents in one file', () => {
    expect(() => parseDocumentText(`${HEAD}---\n${HEAD}`, { source: 'two.yaml' })).toThrow(
      expect.objectContaining({ code: 'OPENAPI_SYNTAX', message: expect.stringContaining('2 YAML documents') }),
    );
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
    expect(failure?.message).toBe(
      'The OpenAPI document from dup.yaml is neither valid JSON nor valid YAML: duplicated mapping key at line 5, column 1.',
    );
  });

  it('takes empty text as no document, which the shape check names', () => {
    expect(() => parseDocumentText('# nothing here\n', { source: 'empty.yaml' })).toThrow(
      expect.objectContaining({ code: 'OPENAPI_NOT_AN_OBJECT' }),
    );
  });
});
