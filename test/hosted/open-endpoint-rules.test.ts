/** The pure rules behind the hosted server's open endpoints. */
import { describe, expect, it } from 'vitest';
import { checkClientRedirectUris } from '../../src/hosted/client-redirect.js';

describe('redirect URI lists of a registration (pure)', () => {
  it('HOST-40 applies the redirect URI rule to post_logout_redirect_uris too, naming the field', () => {
    expect(checkClientRedirectUris({ redirect_uris: ['https://chat.example/cb'], post_logout_redirect_uris: ['https://chat.example/bye'] })).toEqual({ ok: true });
    expect(checkClientRedirectUris({ redirect_uris: ['https://chat.example/cb'], post_logout_redirect_uris: ['http://evil.example/'] })).toMatchObject({ ok: false, field: 'post_logout_redirect_uris' });
    expect(checkClientRedirectUris({ redirect_uris: ['http://evil.example/'] })).toMatchObject({ ok: false, field: 'redirect_uris' });
    expect(checkClientRedirectUris({ post_logout_redirect_uris: 'https://chat.example/bye' as never })).toMatchObject({ ok: false, field: 'post_logout_redirect_uris' });
    expect(checkClientRedirectUris({})).toEqual({ ok: true });
  });
});
