/**
 * Every kind of hosted record read back from the grant store: one of its shape is used as it was
 * written; one of another shape (a field missing, a field of the wrong type, the record nested in
 * another) reads as absent, or as the refusal its reader already has for a missing record.
 */
import { describe, expect, it } from 'vitest';
import { readRecord, type RecordKind } from '../../src/grant-store/index.js';
import { createClientMetadataDocuments } from '../../src/hosted/client-metadata-documents.js';
import { CONSENT_RESULT_RECORD } from '../../src/hosted/consent-result.js';
import { generationOf } from '../../src/hosted/person-generation.js';
import { loadProviderSecrets } from '../../src/hosted/provider-secrets.js';
import { parsePublicUrl } from '../../src/hosted/public-url.js';
import { WINDOW_COUNT_RECORD } from '../../src/hosted/registration-limits.js';
import { SCHOOL_GRANT_RECORD } from '../../src/hosted/school-grant.js';
import { SCHOOL_FLOW_RECORD } from '../../src/hosted/school-sign-in.js';
import { PENDING_STEP_UP_RECORD, STEP_UP_FLOW_RECORD } from '../../src/hosted/step-up-record.js';
import { namespaceOfModel, storeAdapterClass } from '../../src/hosted/store-adapter.js';
import { memoryStore } from '../grant-store/support/memory-store.js';

const grant = {
  sub: 'usr_owner_ada',
  name: 'Ada',
  roles: ['owner'],
  accessToken: 'at-1',
  refreshToken: 'rt-1',
  scopes: ['openid', 'account:read'],
  expiresAt: 1_800_000_000,
};
const flow = {
  id: 'link-id',
  sub: 'usr_owner_ada',
  url: 'https://mcp.school.example/step-up/link-id',
  scopes: ['account:read', 'comments:read'],
  newScopes: ['comments:read'],
  startedAt: 1_800_000_000_000,
  expiresAt: 1_800_000_600_000,
  reach: 'call-waits',
};
const schoolFlow = {
  uid: 'interaction-uid',
  stepUp: { id: 'link-id', sub: 'usr_owner_ada', scopes: ['account:read'] },
  verifier: 'verifier',
  bindingDigest: 'digest',
  scopes: ['openid', 'profile'],
};

/** Each kind with a record of its shape and records of other shapes. */
const kinds: [string, RecordKind<unknown>, Record<string, unknown>, Record<string, unknown>][] = [
  [
    'a school grant',
    SCHOOL_GRANT_RECORD,
    grant,
    {
      'a missing field': { ...grant, accessToken: undefined },
      'a field of the wrong type': { ...grant, scopes: 'openid account:read' },
      'a list with an element of the wrong type': { ...grant, roles: ['owner', 1] },
      'extra nesting': { grant },
    },
  ],
  [
    'a step-up link',
    PENDING_STEP_UP_RECORD,
    { sub: 'usr_owner_ada', scopes: ['account:read'], missing: ['account:read'] },
    {
      'a missing field': { sub: 'usr_owner_ada', scopes: ['account:read'] },
      'a field of the wrong type': { sub: 7, scopes: ['account:read'], missing: [] },
      'extra nesting': { pending: { sub: 'usr_owner_ada', scopes: [], missing: [] } },
    },
  ],
  [
    'a step-up flow',
    STEP_UP_FLOW_RECORD,
    flow,
    {
      'a missing field': { ...flow, url: undefined },
      'a field of the wrong type': { ...flow, startedAt: '1800000000000' },
      'an end it cannot have': { ...flow, ended: 'granted' },
      'extra nesting': { flow },
    },
  ],
  [
    'a sign-in under way at the school',
    SCHOOL_FLOW_RECORD,
    schoolFlow,
    {
      'a missing field': { ...schoolFlow, verifier: undefined },
      'a field of the wrong type': { ...schoolFlow, scopes: [['openid']] },
      'a step-up of the wrong shape': { ...schoolFlow, stepUp: { id: 'link-id', sub: 'usr_owner_ada' } },
      'extra nesting': { flow: schoolFlow },
    },
  ],
  [
    'a sign-in result',
    CONSENT_RESULT_RECORD,
    { sub: 'usr_owner_ada', generation: 'g1' },
    {
      'neither a person nor an error': { generation: 'g1' },
      'a field of the wrong type': { sub: ['usr_owner_ada'] },
      'extra nesting': { result: { sub: 'usr_owner_ada' } },
    },
  ],
  [
    'a registration count',
    WINDOW_COUNT_RECORD,
    { buckets: [[1_800_000_000, 3]] },
    {
      'a missing field': {},
      'a bucket of the wrong shape': { buckets: [[1_800_000_000]] },
      'a count of the wrong type': { buckets: [[1_800_000_000, '3']] },
      'extra nesting': { count: { buckets: [] } },
    },
  ],
];

describe('hosted records read back from the store', () => {
  describe.each(kinds)('%s', (_kind, kind, wellFormed, misshapen) => {
    it('ST-17 is read as it was written', async () => {
      const store = memoryStore();
      await store.write(kind.namespace, 'name', wellFormed);
      expect(await readRecord(store, kind, 'name')).toEqual(wellFormed);
    });

    it.each(Object.entries(misshapen))('ST-17 reads as absent with %s', async (_what, value) => {
      const store = memoryStore();
      store.put(kind.namespace, 'name', value);
      expect(await readRecord(store, kind, 'name')).toBeUndefined();
    });
  });

  it("ST-17 takes a person's generation of another shape for the first one", async () => {
    const store = memoryStore();
    store.put('person-generation', 'usr_owner_ada', { id: 'g2' });
    expect(await generationOf(store, 'usr_owner_ada')).toBe('g2');
    store.put('person-generation', 'usr_owner_ada', { id: 2 });
    expect(await generationOf(store, 'usr_owner_ada')).toBe('');
    store.put('person-generation', 'usr_owner_ada', { generation: { id: 'g2' } });
    expect(await generationOf(store, 'usr_owner_ada')).toBe('');
  });
});

describe("the engine's records read back from the store", () => {
  const payload = { kind: 'AccessToken', jti: 'token-1', accountId: 'usr_owner_ada', clientId: 'client-1' };

  it('ST-17 finds a payload of its shape, and none of another shape (a payload that is not an object, a field the adapter reads of the wrong type, nesting)', async () => {
    const store = memoryStore();
    const Adapter = storeAdapterClass(store, () => 1_800_000_000);
    const tokens = new Adapter('AccessToken');
    const namespace = namespaceOfModel('AccessToken');
    store.put(namespace, 'token-1', { payload, expiresAt: 1_800_003_600 });
    expect(await tokens.find('token-1')).toEqual(payload);
    for (const record of [
      { payload: 'token-1' },
      { payload: { ...payload, accountId: 42 } },
      { payload, expiresAt: 'later' },
      { record: { payload } },
    ]) {
      store.put(namespace, 'token-1', record);
      expect(await tokens.find('token-1')).toBeUndefined();
    }
  });

  it('ST-17 finds no session by a uid whose pointer has another shape', async () => {
    const store = memoryStore();
    const sessions = new (storeAdapterClass(store))('Session');
    store.put(namespaceOfModel('Session'), 'session-1', { payload: { kind: 'Session', uid: 'uid-1' } });
    store.put('oidc-session-uid', 'uid-1', { id: 'session-1' });
    expect(await sessions.findByUid('uid-1')).toEqual({ kind: 'Session', uid: 'uid-1' });
    store.put('oidc-session-uid', 'uid-1', { id: ['session-1'] });
    expect(await sessions.findByUid('uid-1')).toBeUndefined();
  });

  it('ST-17 consumes nothing of a record of another shape, and revokes a grant whose index has another shape without failing', async () => {
    const store = memoryStore();
    const Adapter = storeAdapterClass(store, () => 1_800_000_000);
    const codes = new Adapter('AuthorizationCode');
    const namespace = namespaceOfModel('AuthorizationCode');
    store.put('oidc-consume-claim', 'AuthorizationCode code-1', {});
    store.put(namespace, 'code-1', { payload: ['code-1'] });
    await codes.consume('code-1');
    expect(await store.read(namespace, 'code-1')).toEqual({ payload: ['code-1'] });
    store.put(namespace, 'code-2', { payload: { kind: 'AuthorizationCode', grantId: 'grant-1' } });
    store.put('oidc-grant-members', 'grant-1', { members: [{ model: 'AuthorizationCode' }] });
    await codes.revokeByGrantId!('grant-1');
    expect(store.has('oidc-grant-members', 'grant-1')).toBe(false);
    expect(store.has(namespace, 'code-2')).toBe(true);
  });
});

describe("a client's kept metadata document read back from the store", () => {
  const publicUrl = parsePublicUrl('https://mcp.school.example');
  if (!publicUrl.ok) throw new Error(publicUrl.reason);
  const clientId = 'https://client.example/metadata.json';
  const metadata = {
    client_id: clientId,
    token_endpoint_auth_method: 'none',
    client_name: 'Client',
    redirect_uris: ['https://client.example/callback'],
  };

  it('ST-17 is used as it was kept', async () => {
    const store = memoryStore();
    store.put('client-metadata-document', clientId, metadata);
    expect(await createClientMetadataDocuments(store, publicUrl.url).find(clientId)).toEqual(metadata);
  });

  it.each([
    ['another client_id', { ...metadata, client_id: 'https://elsewhere.example/metadata.json' }],
    ['no redirect URIs', { ...metadata, redirect_uris: 'https://client.example/callback' }],
    ['a field the check leaves out', { ...metadata, jwks_uri: 'https://client.example/jwks' }],
    ['extra nesting', { metadata }],
  ])('ST-17 is not used with %s: the kept refusal answers instead', async (_what, value) => {
    const store = memoryStore();
    store.put('client-metadata-document', clientId, value);
    store.put('client-metadata-refusal', clientId, { reason: 'its URL answered 404' });
    await expect(createClientMetadataDocuments(store, publicUrl.url).find(clientId)).rejects.toMatchObject({
      error_description: expect.stringMatching(/its URL answered 404/),
    });
  });
});

describe("the authorization server's secrets read back from the store", () => {
  it('ST-17 are used as they were written, and replaced when they have another shape', async () => {
    const store = memoryStore();
    const first = await loadProviderSecrets(store);
    expect(await loadProviderSecrets(store)).toEqual(first);
    for (const value of [
      { cookieKeys: [], signingJwk: first.signingJwk },
      { cookieKeys: [first.cookieKeys[0], 7], signingJwk: first.signingJwk },
      { cookieKeys: first.cookieKeys, signingJwk: 'key' },
      { cookieKeys: first.cookieKeys, signingJwk: { ...first.signingJwk, d: undefined } },
      { secrets: first },
    ]) {
      store.put('hosted-secrets', 'authorization-server', value);
      const replaced = await loadProviderSecrets(store);
      expect(replaced.cookieKeys).toHaveLength(1);
      expect(replaced.cookieKeys[0]).not.toBe(first.cookieKeys[0]);
    }
  });
});
