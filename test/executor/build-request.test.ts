import { describe, expect, it } from 'vitest';
import { buildRequest } from '../../src/executor/build-request.js';
import { operation, parameter, refusalCode as refusal } from './operation-fixtures.js';

const API = 'https://api.example';

const students = operation({
  pathTemplate: '/courses/{courseId}/students',
  parameters: [parameter({ name: 'courseId', in: 'path' })],
});

describe('API-02 paths are appended, never resolved', () => {
  it('documents the hazard: resolving a path against the base can change the origin', () => {
    expect(new URL('//evil.example/x', `${API}/v1/`).origin).toBe('https://evil.example');
  });

  it('appends the template to a base path by concatenation', () => {
    const built = buildRequest(students, { courseId: 'c1' }, `${API}/school/`);
    expect(built.url).toBe('https://api.example/school/courses/c1/students');
  });

  it.each([
    ['//evil.example/x'],
    ['/a/../../admin'],
    ['/a/./b'],
    ['/a\\b'],
    ['/https://evil.example'],
    ['/a?b'],
    ['/a#b'],
    ['/a\tb'],
    ['/a\u0001b'],
    ['relative'],
  ])('API-02 refuses the template %j before sending', (pathTemplate) => {
    expect(refusal(() => buildRequest(operation({ pathTemplate, parameters: [] }), {}, `${API}/v1`))).toBe(
      'API_URL_REFUSED',
    );
  });

  it('refuses a template variable that no path parameter defines', () => {
    expect(refusal(() => buildRequest(operation({ parameters: [] }), { course_id: '1' }, API))).toBe('API_URL_REFUSED');
  });

  it('refuses a base URL with credentials, a query or a non-http scheme', () => {
    for (const base of ['https://user:pw@api.example', 'https://api.example/?x=1', 'ftp://api.example', 'not a url']) {
      expect(refusal(() => buildRequest(students, { courseId: '1' }, base))).toBe('API_URL_REFUSED');
    }
  });
});

describe('API-03 path values', () => {
  it('documents the hazard: the URL parser collapses ".." and its percent-encoded forms', () => {
    expect(new URL('https://api.example/v1/courses/../admin').pathname).toBe('/v1/admin');
    expect(new URL('https://api.example/v1/courses/%2E%2E/admin').pathname).toBe('/v1/admin');
  });

  it.each([['..'], ['.'], [''], ['a\u0000b'], ['a\nb'], ['a\u007fb'], ['x'.repeat(1025)], ['é'.repeat(513)]])(
    'API-03 rejects the value %j with an input error before sending',
    (courseId) => {
      expect(refusal(() => buildRequest(students, { courseId }, API))).toBe('API_INPUT_INVALID');
    },
  );

  it('accepts a value of exactly 1 KiB', () => {
    expect(buildRequest(students, { courseId: 'x'.repeat(1024) }, API).url).toContain('x'.repeat(1024));
  });

  it.each([
    ['../admin', '..%2Fadmin'],
    ['a/b', 'a%2Fb'],
    ['a?b=1', 'a%3Fb%3D1'],
    ['a#x', 'a%23x'],
    ['//evil.example', '%2F%2Fevil.example'],
    ['@evil.example', '%40evil.example'],
    ['\\..', '%5C..'],
    ['%2e%2e', '%252e%252e'],
    ["it's (1)*!", 'it%27s%20%281%29%2A%21'],
    [42, '42'],
  ])('API-03 sends %j percent-encoded as one segment: %s', (courseId, segment) => {
    const built = buildRequest(students, { courseId }, `${API}/v1`);
    expect(built.url).toBe(`https://api.example/v1/courses/${segment}/students`);
    const parsed = new URL(built.url);
    expect(parsed.origin).toBe(API);
    expect(parsed.pathname).toBe(`/v1/courses/${segment}/students`);
  });

  it('requires a path argument', () => {
    expect(refusal(() => buildRequest(students, {}, API))).toBe('API_INPUT_INVALID');
  });

  it('reads the value from the tool argument, not from the wire name', () => {
    const renamed = operation({
      pathTemplate: '/courses/{id}',
      parameters: [parameter({ name: 'id', argument: 'path_id', in: 'path' })],
    });
    expect(buildRequest(renamed, { path_id: '7', id: '8' }, API).url).toBe('https://api.example/courses/7');
  });
});

describe('API-04 query parameters', () => {
  const search = operation({
    pathTemplate: '/courses',
    parameters: [
      parameter({ name: 'q', in: 'query' }),
      parameter({ name: 'page', in: 'query' }),
      parameter({ name: 'access_token', in: 'query' }),
    ],
  });

  it('sends only declared parameters, encoded as URLSearchParams would', () => {
    const q = 'a b&c=d+é/?#%';
    const built = buildRequest(search, { q, page: 2, extra: 'x' }, API);
    expect(new URL(built.url).search).toBe(`?${new URLSearchParams({ q, page: '2' }).toString()}`);
  });

  it('never fills a parameter named access_token by itself', () => {
    expect(buildRequest(search, { q: 'x' }, API).url).toBe('https://api.example/courses?q=x');
  });

  it('leaves out null and undefined values', () => {
    expect(buildRequest(search, { q: null, page: undefined }, API).url).toBe('https://api.example/courses');
  });
});

describe('API-05 header parameters', () => {
  const forbidden = [
    'Authorization',
    'Proxy-Authorization',
    'Cookie',
    'Host',
    'Content-Length',
    'Transfer-Encoding',
    'Connection',
    'X-Forwarded-For',
  ];
  const withHeaders = operation({
    pathTemplate: '/courses',
    parameters: [...forbidden, 'X-Request-Id'].map((name) => parameter({ name, in: 'header', argument: name })),
  });

  it('never lets arguments set credential, routing or hop-by-hop headers', () => {
    const args = Object.fromEntries([...forbidden, 'X-Request-Id'].map((name) => [name, 'attacker']));
    const built = buildRequest(withHeaders, args, API);
    expect(Object.keys(built.headers).sort()).toEqual(['accept', 'x-request-id']);
  });

  it.each([['a\r\nX-Evil: 1'], ['a\nb'], ['a\rb'], ['a\u0000b']])('rejects the header value %j', (value) => {
    expect(refusal(() => buildRequest(withHeaders, { 'X-Request-Id': value }, API))).toBe('API_INPUT_INVALID');
  });

  it('never sends cookie parameters', () => {
    const cookie = operation({ pathTemplate: '/courses', parameters: [parameter({ name: 'session', in: 'cookie' })] });
    expect(buildRequest(cookie, { session: 's' }, API).headers).toEqual({ accept: 'application/json, */*;q=0.5' });
  });
});

describe('request bodies', () => {
  const update = operation({
    method: 'patch',
    body: {
      contentType: 'application/json',
      required: false,
      schema: {},
      mode: 'merged',
      propertyArguments: { body_title: 'title', price: 'price' },
    },
  });

  it('maps merged body arguments to their property names', () => {
    const built = buildRequest(update, { course_id: '1', body_title: 'New', price: 0, unknown: 1 }, API);
    expect(built.method).toBe('PATCH');
    expect(built.headers['content-type']).toBe('application/json');
    expect(JSON.parse(String(built.body))).toEqual({ title: 'New', price: 0 });
  });

  it('sends no body when an optional merged body has no arguments', () => {
    expect(buildRequest(update, { course_id: '1' }, API).body).toBeUndefined();
  });

  it('sends a wrapped body as the whole value', () => {
    const wrapped = operation({
      method: 'put',
      body: { contentType: 'application/json', required: true, schema: {}, mode: 'wrapped', argument: 'body' },
    });
    expect(buildRequest(wrapped, { course_id: '1', body: [1, 2] }, API).body).toBe('[1,2]');
    expect(refusal(() => buildRequest(wrapped, { course_id: '1' }, API))).toBe('API_INPUT_INVALID');
  });

  it('encodes an x-www-form-urlencoded body like URLSearchParams', () => {
    const form = operation({
      method: 'post',
      body: {
        contentType: 'application/x-www-form-urlencoded',
        required: true,
        schema: {},
        mode: 'merged',
        propertyArguments: { name: 'name', tags: 'tags' },
      },
    });
    const built = buildRequest(form, { course_id: '1', name: 'a b&c', tags: ['x', 'y'] }, API);
    expect(built.body).toBe(
      new URLSearchParams([
        ['name', 'a b&c'],
        ['tags', 'x'],
        ['tags', 'y'],
      ]).toString(),
    );
  });

  it('sends a raw file body with the file content type when the media type is a wildcard', () => {
    const raw = operation({
      method: 'put',
      body: { contentType: 'image/*', required: true, schema: {}, mode: 'wrapped', argument: 'file', file: true },
    });
    const built = buildRequest(
      raw,
      { course_id: '1', file: { filename: 'a.png', content_base64: 'iVBORw==', content_type: 'image/png' } },
      API,
    );
    expect(built.headers['content-type']).toBe('image/png');
    expect(Buffer.from(built.body as Uint8Array).toString('base64')).toBe('iVBORw==');
  });
});
