import { describe, expect, it } from 'vitest';
import { redirectUriAllowed } from '../../src/hosted/client-redirect.js';

const registered = [
  'http://127.0.0.1:47011/callback',
  'http://[::1]:47011/callback',
  'http://localhost:3334/oauth/callback',
  'https://chat.example/api/callback',
];

describe('the redirect URI of an authorization request (pure)', () => {
  it.each([
    ['a registered one', 'http://127.0.0.1:47011/callback'],
    ['127.0.0.1 on another port (RFC 8252 §7.3)', 'http://127.0.0.1:51234/callback'],
    ['[::1] on another port', 'http://[::1]:8080/callback'],
    ['127.0.0.1 without a port', 'http://127.0.0.1/callback'],
    ['localhost on another port (§8.3: it works as the literals do)', 'http://localhost:3335/oauth/callback'],
    ['an https one', 'https://chat.example/api/callback'],
  ])('HOST-29 accepts %s', (_label, uri) => {
    expect(redirectUriAllowed(registered, uri, true)).toBe(true);
  });

  it.each([
    ['another path on loopback', 'http://127.0.0.1:51234/elsewhere'],
    ['a query the registration does not have', 'http://127.0.0.1:51234/callback?x=1'],
    ['another loopback host than registered', 'http://localhost:47011/callback'],
    ['127.0.0.1 where localhost was registered', 'http://127.0.0.1:3334/oauth/callback'],
    ['https on loopback', 'https://127.0.0.1:47011/callback'],
    ['an https one on another port', 'https://chat.example:8443/api/callback'],
    ['another https path', 'https://chat.example/api/callback2'],
    ['not a URL', 'callback'],
  ])('HOST-29 refuses %s', (_label, uri) => {
    expect(redirectUriAllowed(registered, uri, true)).toBe(false);
  });

  it("HOST-29 compares a metadata document's loopback redirect exactly (HOST-18)", () => {
    expect(redirectUriAllowed(registered, 'http://127.0.0.1:47011/callback', false)).toBe(true);
    expect(redirectUriAllowed(registered, 'http://127.0.0.1:51234/callback', false)).toBe(false);
  });
});
