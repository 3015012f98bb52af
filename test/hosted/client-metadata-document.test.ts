import { describe, expect, it } from 'vitest';
import {
  checkClientIdUrl,
  checkClientMetadataDocument,
  isUrlClientId,
} from '../../src/hosted/client-metadata-document.js';
import { renderHostedConsentPage } from '../../src/hosted/consent-page.js';

const URL_ID = 'https://agent.example/oauth/client.json';
const goodDocument = { client_id: URL_ID, client_name: 'Agent', redirect_uris: ['https://agent.example/callback'] };

describe('Client ID Metadata Documents: the rules, pure', () => {
  it('tells a URL client_id from a registered one', () => {
    expect(isUrlClientId(URL_ID)).toBe(true);
    expect(isUrlClientId('http://127.0.0.1:9/client.json')).toBe(true);
    expect(isUrlClientId('Vq3xW0cYbH1')).toBe(false);
  });

  it('accepts an https URL with a path, on any deployment', () => {
    expect(checkClientIdUrl(URL_ID, false)).toMatchObject({ ok: true });
    expect(checkClientIdUrl(URL_ID, true)).toMatchObject({ ok: true });
  });

  it('HOST-17 refuses a plain http URL client_id on a public https deployment, and allows a loopback one only on a loopback deployment', () => {
    expect(checkClientIdUrl('http://127.0.0.1:8080/client.json', false)).toMatchObject({
      ok: false,
      reason: 'a URL client_id must be https',
    });
    expect(checkClientIdUrl('http://127.0.0.1:8080/client.json', true)).toMatchObject({ ok: true });
    expect(checkClientIdUrl('http://agent.example/client.json', true)).toMatchObject({ ok: false });
  });

  it.each([
    ['with user information', 'https://user:pw@agent.example/client.json'],
    ['with a fragment', 'https://agent.example/client.json#x'],
    ['with a query', 'https://agent.example/client.json?x=1'],
    ['without a path', 'https://agent.example/'],
    ['with dot segments', 'https://agent.example/a/../client.json'],
    ['not in normal form', 'https://AGENT.example/client.json'],
  ])('HOST-17 refuses a URL client_id %s', (_label, clientId) => {
    expect(checkClientIdUrl(clientId, false).ok).toBe(false);
  });

  it.each([
    'https://10.0.0.5/client.json',
    'https://169.254.169.254/client.json',
    'https://[::1]/client.json',
    'https://127.0.0.1/client.json',
  ])('HOST-21 refuses a private or loopback address literal %s on a public deployment', (clientId) => {
    expect(checkClientIdUrl(clientId, false)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('not point at a private'),
    });
  });

  it('accepts a public address literal, and any https URL on a loopback deployment', () => {
    expect(checkClientIdUrl('https://93.184.215.14/client.json', false)).toMatchObject({ ok: true });
    expect(checkClientIdUrl('https://10.0.0.5/client.json', true)).toMatchObject({ ok: true });
  });

  it('keeps only registration fields of an accepted document, as a public client', () => {
    const checked = checkClientMetadataDocument(URL_ID, {
      ...goodDocument,
      jwks_uri: 'https://agent.example/jwks',
      token_endpoint_auth_method: 'none',
    });
    expect(checked).toEqual({
      ok: true,
      metadata: {
        client_id: URL_ID,
        client_name: 'Agent',
        redirect_uris: ['https://agent.example/callback'],
        token_endpoint_auth_method: 'none',
      },
    });
  });

  it.each([
    ['another client_id', { ...goodDocument, client_id: 'https://attacker.example/client.json' }, 'another client_id'],
    ['no client_id', { client_name: 'Agent', redirect_uris: ['https://agent.example/callback'] }, 'another client_id'],
    ['no redirect_uris', { client_id: URL_ID }, 'no redirect_uris'],
    ['an empty redirect_uris', { ...goodDocument, redirect_uris: [] }, 'no redirect_uris'],
    ['a client secret', { ...goodDocument, client_secret: 's3cret' }, 'client secret'],
    [
      'a confidential auth method',
      { ...goodDocument, token_endpoint_auth_method: 'client_secret_basic' },
      'public client',
    ],
    ['an array', [goodDocument], 'not a JSON object'],
  ])('HOST-18 refuses a document with %s', (_label, document, reason) => {
    const checked = checkClientMetadataDocument(URL_ID, document);
    expect(checked.ok).toBe(false);
    expect(checked.ok ? '' : checked.reason).toContain(reason);
  });

  it('HOST-20 names the host of a URL client_id on the consent page, escaped', () => {
    const html = renderHostedConsentPage({
      clientName: 'Claude<b>',
      clientId: URL_ID,
      redirectUri: 'https://agent.example/callback',
      schoolName: 'School',
      formAction: '/consent/x/finish',
      csrfToken: 't',
    });
    expect(html).toContain('<strong id="client-id-host">agent.example</strong>');
    expect(html).toContain('Claude&lt;b&gt;');
    const registered = renderHostedConsentPage({
      clientName: 'Agent',
      clientId: 'Vq3xW0cYbH1',
      redirectUri: 'https://agent.example/callback',
      schoolName: 'School',
      formAction: '/consent/x/finish',
      csrfToken: 't',
    });
    expect(registered).not.toContain('client-id-host');
  });
});
