/** The pure rules behind the hosted server's open endpoints. */
import { describe, expect, it } from 'vitest';
import { checkClientRedirectUris } from '../../src/hosted/client-redirect.js';
import { clientAddressOf, pinnedForwardingHeaders } from '../../src/hosted/forwarded-request.js';
import { parsePublicUrl } from '../../src/hosted/index.js';
import { metadataCacheControl } from '../../src/hosted/metadata-cache.js';

describe('redirect URI lists of a registration (pure)', () => {
  it('HOST-40 applies the redirect URI rule to post_logout_redirect_uris too, naming the field', () => {
    expect(
      checkClientRedirectUris({
        redirect_uris: ['https://chat.example/cb'],
        post_logout_redirect_uris: ['https://chat.example/bye'],
      }),
    ).toEqual({ ok: true });
    expect(
      checkClientRedirectUris({
        redirect_uris: ['https://chat.example/cb'],
        post_logout_redirect_uris: ['http://evil.example/'],
      }),
    ).toMatchObject({ ok: false, field: 'post_logout_redirect_uris' });
    expect(checkClientRedirectUris({ redirect_uris: ['http://evil.example/'] })).toMatchObject({
      ok: false,
      field: 'redirect_uris',
    });
    expect(checkClientRedirectUris({ post_logout_redirect_uris: 'https://chat.example/bye' as never })).toMatchObject({
      ok: false,
      field: 'post_logout_redirect_uris',
    });
    expect(checkClientRedirectUris({})).toEqual({ ok: true });
  });
});

describe('forwarded headers (pure)', () => {
  const publicUrl = (() => {
    const parsed = parsePublicUrl('https://mcp.school.example/tools');
    if (!parsed.ok) throw new Error(parsed.reason);
    return parsed.url;
  })();

  it('HOST-41 takes the client address from the socket unless a proxy is trusted, then from the last X-Forwarded-For entry', () => {
    expect(clientAddressOf('::ffff:192.0.2.7', ['198.51.100.1'], false)).toBe('192.0.2.7');
    expect(clientAddressOf('10.0.0.2', ['198.51.100.1, 203.0.113.9'], true)).toBe('203.0.113.9');
    expect(clientAddressOf('10.0.0.2', ['198.51.100.1', '2001:db8::1'], true)).toBe('2001:db8::1');
    expect(clientAddressOf('10.0.0.2', ['not-an-address'], true)).toBe('10.0.0.2');
    expect(clientAddressOf('10.0.0.2', undefined, true)).toBe('10.0.0.2');
  });

  it("HOST-41 replaces every forwarding header with the public URL's scheme and host and the decided address", () => {
    const pinned = pinnedForwardingHeaders(
      {
        host: 'mcp.school.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'http',
        forwarded: 'host=evil.example',
        'x-forwarded-prefix': '/x',
        accept: 'application/json',
      },
      publicUrl,
      '203.0.113.9',
    );
    expect(pinned).toEqual({
      host: 'mcp.school.example',
      accept: 'application/json',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'mcp.school.example',
      'x-forwarded-for': '203.0.113.9',
    });
  });

  it('HOST-42 lets a metadata success be cached five minutes, and an error never', () => {
    expect(metadataCacheControl(200)).toBe('public, max-age=300');
    expect(metadataCacheControl(304)).toBe('public, max-age=300');
    for (const status of [400, 404, 405, 500, 503]) expect(metadataCacheControl(status)).toBe('no-store');
  });
});
