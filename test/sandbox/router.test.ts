import { describe, expect, it } from 'vitest';
import { Router } from '../../packages/sandbox/src/http/router.js';

describe('sandbox router', () => {
  const ok = () => new Response('ok');
  const router = new Router()
    .add('GET', '/api/v1/courses/:courseId', ok)
    .add('DELETE', '/api/v1/courses/:courseId', ok);

  it('matches a pattern and decodes its parameters', () => {
    const { route } = router.match('GET', '/api/v1/courses/c%2F1');
    expect(route?.params).toEqual({ courseId: 'c/1' });
    expect(route?.pattern).toBe('/api/v1/courses/:courseId');
  });

  it('reports the allowed methods when only the method is wrong', () => {
    const { route, allowed } = router.match('POST', '/api/v1/courses/1');
    expect(route).toBeUndefined();
    expect(allowed).toEqual(['GET', 'DELETE']);
  });

  it('does not match a malformed percent-escape', () => {
    expect(router.match('GET', '/api/v1/courses/%E0%A4%A').route).toBeUndefined();
  });
});
