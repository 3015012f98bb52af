import { describe, expect, it } from 'vitest';
import { isJsonMediaType, mediaTypeOf } from '../../src/network/index.js';

describe('media types (RFC 9110 §8.3.1)', () => {
  it('keeps the type and subtype, lower-cased, without parameters', () => {
    expect(mediaTypeOf('Application/JSON; charset=utf-8')).toBe('application/json');
    expect(mediaTypeOf(' text/plain ')).toBe('text/plain');
    expect(mediaTypeOf(undefined)).toBe('');
  });

  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['APPLICATION/JSON', true],
    ['application/problem+json', true],
    ['application/vnd.api+json; ext=x', true],
    ['text/vnd.a+json', true],
    ['application/+json', false],
    ['+json', false],
    ['application/jsonx', false],
    ['application/json-seq', false],
    ['text/plain', false],
    ['', false],
  ])('%j is JSON: %s (RFC 6839 §3.1: +json on any type)', (type, expected) => {
    expect(isJsonMediaType(type)).toBe(expected);
  });
});
