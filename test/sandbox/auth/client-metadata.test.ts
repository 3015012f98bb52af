import { describe, expect, it } from 'vitest';
import { checkClientMetadata } from '../../../packages/sandbox/src/auth/client-metadata.js';
import {
  checkClientIdUrl,
  parseClientMetadataDocument,
} from '../../../packages/sandbox/src/auth/client-metadata-document.js';

const LOOPBACK = ['http://127.0.0.1:8765/callback'];

describe('client metadata', () => {
  it('fills in a public client with both grants when the request is minimal', () => {
    expect(checkClientMetadata({ redirect_uris: LOOPBACK })).toEqual({
      ok: true,
      metadata: {
        clientName: undefined,
        applicationType: 'web',
        redirectUris: LOOPBACK,
        tokenEndpointAuthMethod: 'none',
        grantTypes: ['authorization_code', 'refresh_token'],
      },
    });
  });

  it.each([
    ['a non-object body', [], 'invalid_client_metadata'],
    ['no redirect URIs', { redirect_uris: [] }, 'invalid_redirect_uri'],
    ['an https redirect URI', { redirect_uris: ['https://app.example/cb'] }, 'invalid_redirect_uri'],
    [
      'client_secret_basic',
      { redirect_uris: LOOPBACK, token_endpoint_auth_method: 'client_secret_basic' },
      'invalid_client_metadata',
    ],
    ['the implicit grant', { redirect_uris: LOOPBACK, grant_types: ['implicit'] }, 'invalid_client_metadata'],
    [
      'no authorization_code grant',
      { redirect_uris: LOOPBACK, grant_types: ['refresh_token'] },
      'invalid_client_metadata',
    ],
    ['response type token', { redirect_uris: LOOPBACK, response_types: ['token'] }, 'invalid_client_metadata'],
    ['a numeric client name', { redirect_uris: LOOPBACK, client_name: 7 }, 'invalid_client_metadata'],
    [
      'an unknown application type',
      { redirect_uris: LOOPBACK, application_type: 'service' },
      'invalid_client_metadata',
    ],
  ])('refuses %s', (_label, body, error) => {
    expect(checkClientMetadata(body)).toMatchObject({ ok: false, error });
  });
});

describe('client ID metadata documents', () => {
  const URL_ID = 'https://agent.example/client.json';

  it('treats only URLs as document identifiers', () => {
    expect(checkClientIdUrl('sbx_abc', { allowInsecure: false })).toEqual({ kind: 'not-a-url' });
    expect(checkClientIdUrl(URL_ID, { allowInsecure: false })).toEqual({ kind: 'url', url: URL_ID });
  });

  it.each([
    ['http', 'http://agent.example/client.json'],
    ['http loopback without the test option', 'http://127.0.0.1:9/client.json'],
    ['no path', 'https://agent.example/'],
    ['a fragment', 'https://agent.example/client.json#x'],
    ['credentials', 'https://u:p@agent.example/client.json'],
    ['dot segments', 'https://agent.example/a/../client.json'],
  ])('refuses a client_id URL with %s', (_label, clientId) => {
    expect(checkClientIdUrl(clientId, { allowInsecure: false }).kind).toBe('refused');
  });

  it('allows http://127.0.0.1 only with the insecure test option', () => {
    expect(checkClientIdUrl('http://127.0.0.1:9/client.json', { allowInsecure: true }).kind).toBe('url');
    expect(checkClientIdUrl('http://10.0.0.1/client.json', { allowInsecure: true }).kind).toBe('refused');
  });

  it('requires the document to name its own URL and to hold no secret', () => {
    const document = { client_id: URL_ID, client_name: 'Agent', redirect_uris: LOOPBACK };
    expect(parseClientMetadataDocument(URL_ID, document).ok).toBe(true);
    expect(parseClientMetadataDocument(URL_ID, { ...document, client_id: 'https://other.example/c.json' }).ok).toBe(
      false,
    );
    expect(parseClientMetadataDocument(URL_ID, { ...document, client_secret: 's' }).ok).toBe(false);
    expect(
      parseClientMetadataDocument(URL_ID, { ...document, token_endpoint_auth_method: 'client_secret_post' }).ok,
    ).toBe(false);
    expect(parseClientMetadataDocument(URL_ID, { ...document, redirect_uris: ['https://agent.example/cb'] }).ok).toBe(
      false,
    );
  });
});
