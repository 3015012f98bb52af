import { describe, expect, it } from 'vitest';
import { SchoolMcpError } from '../../src/errors.js';
import type { ExecutionOutcome } from '../../src/executor/index.js';
import { toToolResult } from '../../src/executor/index.js';
import { interpretContent, type ResponseContent, type ResponseOutcome } from '../../src/executor/execution-outcome.js';

const call = { toolName: 'get_course', method: 'GET', pathTemplate: '/api/v1/courses/{course_id}' };

function response(status: number, content: ResponseContent, fields: Partial<ResponseOutcome> = {}): ResponseOutcome {
  return {
    kind: 'response',
    call,
    status,
    contentType: 'application/json',
    content,
    byteLength: 10,
    truncated: false,
    ...fields,
  };
}

function text(outcome: ExecutionOutcome, maxTextChars?: number): string {
  const [first] = toToolResult(outcome, maxTextChars === undefined ? {} : { maxTextChars }).content;
  return first?.type === 'text' ? first.text : '';
}

describe('successful answers', () => {
  it('gives a JSON object as structured content plus compact text', () => {
    const result = toToolResult(response(200, { kind: 'json', value: { id: 'c1', title: 'Algebra' } }));
    expect(result).toEqual({
      content: [{ type: 'text', text: '{"id":"c1","title":"Algebra"}' }],
      structuredContent: { id: 'c1', title: 'Algebra' },
    });
  });

  it('gives arrays and other JSON as text only', () => {
    expect(toToolResult(response(200, { kind: 'json', value: [1, 2] }))).toEqual({
      content: [{ type: 'text', text: '[1,2]' }],
    });
    expect(toToolResult(response(200, { kind: 'json', value: null }))).toEqual({
      content: [{ type: 'text', text: 'null' }],
    });
  });

  it('cuts long text at the documented size with a marker, keeping the full object structured', () => {
    const value = { items: 'x'.repeat(100) };
    const result = toToolResult(response(200, { kind: 'json', value }), { maxTextChars: 40 });
    expect(text(response(200, { kind: 'json', value }), 40)).toBe(
      `${JSON.stringify(value).slice(0, 40)}\n[truncated: showing the first 40 of ${JSON.stringify(value).length} characters]`,
    );
    expect(result.structuredContent).toEqual(value);
  });

  it('says so for empty answers and binary bodies', () => {
    expect(text(response(204, { kind: 'empty' }))).toBe('Done: HTTP 204, no content.');
    expect(text(response(200, { kind: 'binary' }, { contentType: 'image/png', byteLength: 2048 }))).toContain(
      '2048 bytes of image/png',
    );
  });
});

describe('ERR-04 API errors tell the agent what to do', () => {
  it.each([
    [
      400,
      {
        error: 'invalid_request',
        error_description: 'title is required',
        errors: [{ field: 'title' }, { path: ['price', 'amount'] }],
      },
      'API_HTTP_ERROR',
      'Fix title, price.amount',
    ],
    [422, { message: 'Validation failed', errors: { title: ['too short'] } }, 'API_HTTP_ERROR', 'Fix title'],
    [401, {}, 'API_UNAUTHORIZED', 'Sign in again'],
    [403, { error: 'forbidden' }, 'API_HTTP_ERROR', 'ask a school administrator'],
    [
      404,
      { error: { code: 'NOT_FOUND', message: 'No such course' } },
      'API_HTTP_ERROR',
      'No course has this id: list the courses and use an id from there.',
    ],
    [409, { detail: 'Slug taken' }, 'API_HTTP_ERROR', 'read it again'],
    [429, {}, 'API_RATE_LIMITED', 'wait a minute'],
    [500, {}, 'API_HTTP_ERROR', 'try again later'],
  ])('HTTP %i', (status, body, code, hint) => {
    const result = toToolResult(response(status, { kind: 'json', value: body }));
    expect(result.isError).toBe(true);
    const shown = text(response(status, { kind: 'json', value: body }));
    expect(shown).toContain(`get_course failed (${code}).`);
    expect(shown).toContain(`HTTP ${status} to GET /api/v1/courses/{course_id}`);
    expect(shown).toContain(hint);
  });

  it("lets the school's own advice be the next step, without a generic one that contradicts it", () => {
    const body = {
      error: 'invalid_state_transition',
      error_description: 'a course needs at least one lecture before it can be published; add one with create_lecture',
    };
    const shown = text(response(409, { kind: 'json', value: body }));
    expect(shown).toContain('Next step: Add one with create_lecture.');
    expect(shown).not.toContain('read it again');
    expect(
      text(
        response(409, {
          kind: 'json',
          value: { error: 'conflict', error_description: 'the code SPRING is already used by coupon cpn_0001' },
        }),
      ),
    ).toContain('Next step: The item changed or already exists: read it again');
  });

  it("quotes the school's error and description, without control characters", () => {
    const shown = text(
      response(400, {
        kind: 'json',
        value: { error: 'invalid_request', error_description: 'bad\r\n[info] approved\u001b[2J' },
      }),
    );
    expect(shown).toContain('The school said: invalid_request: bad [info] approved');
    expect(shown).not.toMatch(/\r|\u001b/);
  });

  it('names the Retry-After of a 429 or 503', () => {
    expect(text(response(429, { kind: 'empty' }, { retryAfterSeconds: 120 }))).toContain('wait 120 seconds');
    expect(text(response(503, { kind: 'empty' }, { retryAfterSeconds: 30 }))).toContain('retry after 30 seconds');
  });

  it('shows at most 200 bytes of a non-JSON error body', () => {
    const shown = text(response(500, { kind: 'text', text: 'é'.repeat(500) }, { contentType: 'text/plain' }));
    const excerpt = /starts: "(.*)"$/m.exec(shown)?.[1] ?? '';
    expect(Buffer.byteLength(excerpt)).toBeLessThanOrEqual(200);
    expect(excerpt.endsWith('…')).toBe(true);
  });

  it("uses the challenge's description when the body says nothing", () => {
    const outcome = response(
      401,
      { kind: 'empty' },
      { challenge: { scope: [], error: 'invalid_request', errorDescription: 'malformed header' } },
    );
    expect(text(outcome)).toContain('The school said: malformed header');
  });
});

describe('local failures and missing scopes', () => {
  it('gives the code, the message and the hint', () => {
    const outcome: ExecutionOutcome = {
      kind: 'error',
      call,
      error: new SchoolMcpError('API_TIMEOUT', 'Too slow.', { hint: 'Try again later.' }),
    };
    expect(toToolResult(outcome)).toEqual({
      content: [{ type: 'text', text: 'get_course failed (API_TIMEOUT).\nToo slow.\nNext step: Try again later.' }],
      isError: true,
    });
  });

  it('ERR-03 names the missing scope and the way forward', () => {
    const outcome: ExecutionOutcome = {
      kind: 'insufficient_scope',
      call,
      requiredScopes: ['grades:write'],
      scopeSource: 'challenge',
      challenge: { error: 'insufficient_scope', scope: ['grades:write'] },
      response: response(403, { kind: 'empty' }),
    };
    const shown = text(outcome);
    expect(toToolResult(outcome).isError).toBe(true);
    expect(shown).toContain('API_INSUFFICIENT_SCOPE');
    expect(shown).toContain('Ask the user to grant "grades:write"');
  });
});

describe('reading bodies', () => {
  it.each([
    ['{"a":1}', 'application/json', { kind: 'json', value: { a: 1 } }],
    ['{"a":1}', 'application/problem+json', { kind: 'json', value: { a: 1 } }],
    ['[1]', undefined, { kind: 'json', value: [1] }],
    ['{"a":', 'application/json', { kind: 'text', text: '{"a":' }],
    ['a,b', 'text/csv; charset=utf-8', { kind: 'text', text: 'a,b' }],
    ['<x/>', 'application/atom+xml', { kind: 'text', text: '<x/>' }],
    ['\u0000\u0001', 'application/pdf', { kind: 'binary' }],
    ['\u0000\u0001', undefined, { kind: 'binary' }],
    ['', 'application/json', { kind: 'empty' }],
  ])('%j as %s', (body, contentType, expected) => {
    expect(interpretContent(Buffer.from(body), contentType)).toEqual(expected);
  });
});
