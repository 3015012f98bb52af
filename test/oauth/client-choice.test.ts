import type * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import {
  activeClientOf,
  fixedClientOf,
  reusableRegistration,
  revocationClientOf,
  staticClientOf,
} from '../../src/oauth/client-choice.js';
import type { SchoolMetadata } from '../../src/oauth/discovery.js';
import type { StoredClient } from '../../src/oauth/store-record.js';

const NOW = 1_000_000;
const REDIRECT = 'http://127.0.0.1:53682/callback';
const METADATA_URL = 'https://agent.example/client.json';

const school = (server: Record<string, unknown> = {}): SchoolMetadata => ({
  issuer: 'https://school.example',
  server: { issuer: 'https://school.example', ...server } as client.ServerMetadata,
  resource: 'https://school.example/api',
  resourceScopes: [],
});
const acceptsDocuments = school({ client_id_metadata_document_supported: true });

const dynamic = (redirectUris: string[], clientId = 'dyn-1'): StoredClient => ({
  kind: 'dynamic',
  clientId,
  redirectUris,
  registeredAt: 5,
});
const staticClient: StoredClient = { kind: 'static', clientId: 'pre-1', redirectUris: [], registeredAt: NOW };
const documentClient: StoredClient = {
  kind: 'metadata-document',
  clientId: METADATA_URL,
  redirectUris: [],
  registeredAt: NOW,
};

describe('which client signs in (pure)', () => {
  it.each([
    ['no client id', {}, undefined, undefined],
    ['a client id', { clientId: 'pre-1' }, undefined, staticClient],
    [
      'a client id and secret',
      { clientId: 'pre-1', clientSecret: 's3' },
      undefined,
      { ...staticClient, clientSecret: 's3' },
    ],
    ['a secret without a client id', { clientSecret: 's3' }, undefined, undefined],
    ['a client id, for a redirect URI', { clientId: 'pre-1' }, REDIRECT, { ...staticClient, redirectUris: [REDIRECT] }],
  ])('names the pre-registered client of a configuration with %s', (_what, config, redirectUri, expected) => {
    expect(staticClientOf(config, NOW, redirectUri)).toEqual(expected);
  });

  it.each([
    [
      'a client id, whatever the school accepts',
      { clientId: 'pre-1', clientMetadataUrl: METADATA_URL },
      acceptsDocuments,
      staticClient,
    ],
    ['a metadata document the school accepts', { clientMetadataUrl: METADATA_URL }, acceptsDocuments, documentClient],
    ['a metadata document the school does not accept', { clientMetadataUrl: METADATA_URL }, school(), undefined],
    ['a metadata document, before the school is known', { clientMetadataUrl: METADATA_URL }, undefined, undefined],
    ['neither', {}, acceptsDocuments, undefined],
  ])('fixes the client for %s', (_what, config, metadata, expected) => {
    expect(fixedClientOf(config, metadata, NOW)).toEqual(expected);
  });

  it.each([
    ['a fixed client over a stored registration', staticClient, dynamic([REDIRECT]), staticClient],
    ['the stored registration without a fixed client', undefined, dynamic([REDIRECT]), dynamic([REDIRECT])],
    ['nothing when there is neither', undefined, undefined, undefined],
  ])('signs in as %s', (_what, fixed, stored, expected) => {
    expect(activeClientOf(fixed, stored)).toEqual(expected);
  });

  it.each([
    ['a registration made for this redirect URI', dynamic([REDIRECT]), dynamic([REDIRECT])],
    ['a registration made for another port', dynamic(['http://127.0.0.1:40000/callback']), undefined],
    ['no stored registration', undefined, undefined],
    ['a stored pre-registered client', { ...staticClient, redirectUris: [REDIRECT] }, undefined],
    ['a stored metadata document', documentClient, undefined],
  ])('RG-03 reuses %s: %j', (_what, stored, expected) => {
    expect(reusableRegistration(stored, REDIRECT)).toEqual(expected);
  });

  it.each([
    ['the client that obtained the token', 'dyn-1', true, dynamic([REDIRECT])],
    ['the pre-registered client listed first', 'pre-1', true, staticClient],
    ['no client for a token of an unknown client', 'gone-7', true, undefined],
    ['no client where the school offers no revocation endpoint', 'dyn-1', false, undefined],
  ])('RV-01 revokes as %s', (_what, clientId, offered, expected) => {
    expect(revocationClientOf(clientId, [staticClient, dynamic([REDIRECT]), undefined], offered)).toEqual(expected);
  });
});
