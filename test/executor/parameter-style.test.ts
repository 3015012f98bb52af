import { describe, expect, it } from 'vitest';
import {
  encodeFormComponent,
  encodePathSegment,
  serializeHeaderValue,
  serializePathValue,
  serializeQueryValue,
} from '../../src/executor/parameter-style.js';
import { parameter } from './operation-fixtures.js';

// The example values of the OpenAPI 3.1 "Style Examples" table.
const primitive = 'blue';
const list = ['blue', 'black', 'brown'];
const object = { R: 100, G: 200, B: 150 };

describe('path styles (OpenAPI style table)', () => {
  const raw = (text: string) => text;
  it.each([
    ['simple', false, primitive, 'blue'],
    ['simple', false, list, 'blue,black,brown'],
    ['simple', false, object, 'R,100,G,200,B,150'],
    ['simple', true, object, 'R=100,G=200,B=150'],
    ['label', false, primitive, '.blue'],
    ['label', false, list, '.blue,black,brown'],
    ['label', true, list, '.blue.black.brown'],
    ['label', false, object, '.R,100,G,200,B,150'],
    ['label', true, object, '.R=100.G=200.B=150'],
    ['matrix', false, primitive, ';color=blue'],
    ['matrix', false, list, ';color=blue,black,brown'],
    ['matrix', true, list, ';color=blue;color=black;color=brown'],
    ['matrix', false, object, ';color=R,100,G,200,B,150'],
    ['matrix', true, object, ';R=100;G=200;B=150'],
  ])('%s explode=%s %j → %s', (style, explode, value, expected) => {
    expect(serializePathValue(parameter({ name: 'color', in: 'path', style, explode }), value, raw)).toBe(expected);
  });

  it('encodes each item but keeps the delimiters', () => {
    expect(serializePathValue(parameter({ name: 'ids', in: 'path' }), ['a,b', 'c/d'], encodePathSegment)).toBe(
      'a%2Cb,c%2Fd',
    );
  });
});

describe('API-04 query styles (OpenAPI style table)', () => {
  it.each([
    ['form', true, primitive, 'color=blue'],
    ['form', true, list, 'color=blue&color=black&color=brown'],
    ['form', true, object, 'R=100&G=200&B=150'],
    ['form', false, list, 'color=blue,black,brown'],
    ['form', false, object, 'color=R,100,G,200,B,150'],
    ['spaceDelimited', false, list, 'color=blue%20black%20brown'],
    ['pipeDelimited', false, list, 'color=blue|black|brown'],
    ['deepObject', true, object, 'color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150'],
  ])('%s explode=%s %j → %s', (style, explode, value, expected) => {
    expect(serializeQueryValue(parameter({ name: 'color', in: 'query', style, explode }), value)).toBe(expected);
  });

  it('defaults to form with explode', () => {
    expect(serializeQueryValue(parameter({ name: 'id', in: 'query' }), [1, 2])).toBe('id=1&id=2');
  });

  it('keeps a comma inside a value distinct from the delimiter', () => {
    expect(serializeQueryValue(parameter({ name: 'tag', in: 'query', explode: false }), ['a,b', 'c'])).toBe(
      'tag=a%2Cb,c',
    );
  });

  it('nests deepObject keys and repeats array members', () => {
    const filter = parameter({ name: 'filter', in: 'query', style: 'deepObject', explode: true });
    expect(decodeURIComponent(serializeQueryValue(filter, { status: ['open', 'draft'], price: { gte: 10 } }))).toBe(
      'filter[status]=open&filter[status]=draft&filter[price][gte]=10',
    );
  });

  it('sends nothing for empty arrays and objects, and JSON for nested values', () => {
    const query = parameter({ name: 'q', in: 'query' });
    expect(serializeQueryValue(query, [])).toBe('');
    expect(serializeQueryValue(query, {})).toBe('');
    expect(serializeQueryValue(query, [{ a: 1 }])).toBe(`q=${encodeFormComponent('{"a":1}')}`);
  });
});

describe('encoders', () => {
  it('encodes form components exactly as URLSearchParams does', () => {
    const samples = [' ', "!'()*~-._", 'a+b=c&d', 'é€😀', '%2e', '\u0000\r\n', '[]{}|\\^`"<>', '\uD800'];
    for (const sample of samples) {
      expect(`x=${encodeFormComponent(sample)}`).toBe(new URLSearchParams({ x: sample }).toString());
    }
  });

  it('encodes path segments beyond RFC 3986 unreserved', () => {
    expect(encodePathSegment("a b/c?d#e%f!'()*~")).toBe('a%20b%2Fc%3Fd%23e%25f%21%27%28%29%2A~');
  });

  it('serialises headers in simple style without percent-encoding', () => {
    expect(serializeHeaderValue(parameter({ name: 'X-Ids', in: 'header' }), ['a b', 'c'])).toBe('a b,c');
  });
});
