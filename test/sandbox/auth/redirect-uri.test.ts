import { describe, expect, it } from 'vitest';
import { checkRegistrableRedirectUri, matchRedirectUri } from '../../../packages/sandbox/src/auth/redirect-uri.js';

describe('redirect URIs at registration', () => {
  it.each(['http://127.0.0.1:8765/callback', 'http://127.0.0.1/callback', 'http://127.0.0.1:1/cb?client=a'])(
    'accepts the loopback URI %s',
    (uri) => {
      expect(checkRegistrableRedirectUri(uri)).toEqual({ ok: true });
    },
  );

  it.each([
    ['a fixed https callback', 'https://app.example/callback'],
    ['localhost', 'http://localhost:8765/callback'],
    ['another host', 'http://evil.example/callback'],
    ['a host that starts like loopback', 'http://127.0.0.1.evil.example/callback'],
    ['IPv6 loopback', 'http://[::1]:8765/callback'],
    ['a fragment', 'http://127.0.0.1:8765/callback#frag'],
    ['an empty fragment', 'http://127.0.0.1:8765/callback#'],
    ['user information', 'http://user:pw@127.0.0.1:8765/callback'],
    ['a hex spelling of loopback', 'http://0x7f.0.0.1:8765/callback'],
    ['a decimal spelling of loopback', 'http://2130706433:8765/callback'],
    ['dot segments', 'http://127.0.0.1:8765/a/../callback'],
    ['no path', 'http://127.0.0.1:8765'],
    ['port 0', 'http://127.0.0.1:0/callback'],
    ['a javascript: URI', 'javascript:alert(1)'],
    ['a data: URI', 'data:text/html,hi'],
    ['a custom scheme', 'com.example.app:/callback'],
    ['a relative URI', '/callback'],
    ['a malformed URI', 'http://127.0.0.1:99999/callback'],
  ])('PLAT-02 refuses %s', (_label, uri) => {
    expect(checkRegistrableRedirectUri(uri).ok).toBe(false);
  });

  it('refuses values that are not strings', () => {
    expect(checkRegistrableRedirectUri(42).ok).toBe(false);
    expect(checkRegistrableRedirectUri('').ok).toBe(false);
  });

  it('explains that an https callback needs a registered integration', () => {
    const check = checkRegistrableRedirectUri('https://app.example/callback');
    expect(check.ok === false && check.reason).toMatch(/registered integration/);
  });
});

describe('redirect URI matching at authorization (RFC 8252 §7.3)', () => {
  const registered = ['http://127.0.0.1:8765/callback'];
  const anyPort = { exactPort: false };
  const exactPort = { exactPort: true };

  it('PLAT-02 matches a loopback URI on any port with the same path', () => {
    expect(matchRedirectUri(registered, 'http://127.0.0.1:50123/callback', anyPort)).toBe(registered[0]);
    expect(matchRedirectUri(['http://127.0.0.1/callback'], 'http://127.0.0.1:50123/callback', anyPort)).toBe(
      'http://127.0.0.1/callback',
    );
  });

  it('PLAT-02 requires the registered port when the school asks for exact matching', () => {
    expect(matchRedirectUri(registered, 'http://127.0.0.1:50123/callback', exactPort)).toBeUndefined();
    expect(matchRedirectUri(registered, 'http://127.0.0.1:8765/callback', exactPort)).toBe(registered[0]);
  });

  it.each([
    ['another path', 'http://127.0.0.1:8765/callback/x'],
    ['a path prefix', 'http://127.0.0.1:8765/call'],
    ['localhost', 'http://localhost:8765/callback'],
    ['a look-alike host', 'http://127.0.0.1.evil.example:8765/callback'],
    ['https', 'https://127.0.0.1:8765/callback'],
    ['an added query', 'http://127.0.0.1:8765/callback?x=1'],
    ['a fragment', 'http://127.0.0.1:8765/callback#x'],
    ['dot segments that normalise to the path', 'http://127.0.0.1:8765/x/../callback'],
    ['a trailing slash', 'http://127.0.0.1:8765/callback/'],
    ['user information', 'http://a@127.0.0.1:8765/callback'],
    ['garbage', 'not a uri'],
  ])('PLAT-02 does not match %s', (_label, requested) => {
    expect(matchRedirectUri(registered, requested, anyPort)).toBeUndefined();
  });
});
