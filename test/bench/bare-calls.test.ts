/**
 * The bare SDK server's read answer, the latency floor: the query it sends and the result it gives
 * back, shaped as school-mcp shapes a JSON read.
 */
import { describe, expect, it } from 'vitest';
import { readQuery, readResult } from '../../tools/bench/bare-calls.js';

describe('the bare SDK server read tool', () => {
  it('sends each given argument once and leaves out the absent ones', () => {
    expect(readQuery({ per_page: 10, page: undefined, q: null, role: 'teacher' })).toBe('per_page=10&role=teacher');
    expect(readQuery({})).toBe('');
  });

  it('gives the parsed body as structured content only when the tool has an output schema', () => {
    const body = { data: [{ id: 1 }] };
    expect(readResult(body, true)).toEqual({
      content: [{ type: 'text', text: '{"data":[{"id":1}]}' }],
      structuredContent: body,
    });
    expect(readResult(body, false)).toEqual({ content: [{ type: 'text', text: '{"data":[{"id":1}]}' }] });
  });

  it('keeps an array body as text only, since structured content must be an object', () => {
    expect(readResult([1, 2], true)).toEqual({ content: [{ type: 'text', text: '[1,2]' }] });
  });
});
