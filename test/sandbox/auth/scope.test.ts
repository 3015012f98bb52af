import { describe, expect, it } from 'vitest';
import { narrowScope, parseScope } from '../../../packages/sandbox/src/auth/scope.js';

describe('scope parameter', () => {
  it('parses known scopes, dropping repeats', () => {
    expect(parseScope('openid courses:read openid')).toEqual({ ok: true, scopes: ['openid', 'courses:read'] });
  });

  it('names unknown scopes', () => {
    const parsed = parseScope('openid courses:admin');
    expect(parsed.ok).toBe(false);
    expect(parsed.ok === false && parsed.reason).toContain('courses:admin');
  });

  it.each([undefined, '', '   ', 'openid  profile', ' openid', 'openid\tprofile'])('refuses %j', (value) => {
    expect(parseScope(value).ok).toBe(false);
  });

  it('narrows only to a subset of the grant', () => {
    expect(narrowScope(['openid', 'courses:read'], ['courses:read'])).toEqual(['courses:read']);
    expect(narrowScope(['openid'], ['openid', 'courses:write'])).toBeUndefined();
  });
});
