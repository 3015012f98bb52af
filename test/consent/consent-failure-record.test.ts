/** What the token store keeps of a consent flow of this process that did not succeed. */
import { describe, expect, it } from 'vitest';
import { failureRecord, recordWithFailure, type FailureRecord } from '../../src/consent/consent-failure-record.js';
import { OAuthError, type StoreRecord } from '../../src/oauth/index.js';

const oauth = (code: ConstructorParameters<typeof OAuthError>[0], details?: Record<string, unknown>) =>
  new OAuthError(code, 'm', details === undefined ? {} : { details });

describe('failureRecord', () => {
  it.each<[string, unknown, FailureRecord]>([
    ['closed by this process shutting down: the store stays', oauth('OAUTH_CLOSED'), { kind: 'leave-store' }],
    ['aborted: the store stays', oauth('OAUTH_ABORTED'), { kind: 'leave-store' }],
    [
      'denied',
      oauth('OAUTH_ACCESS_DENIED'),
      { kind: 'record', code: 'OAUTH_ACCESS_DENIED', forgetRegistration: false },
    ],
    [
      'a registration the school no longer knows',
      oauth('OAUTH_AUTHORIZATION_FAILED', { invalidClient: true }),
      { kind: 'record', code: 'OAUTH_AUTHORIZATION_FAILED', forgetRegistration: true },
    ],
    [
      'anything else than an OAuth error reads as a failed authorization',
      new Error('boom'),
      { kind: 'record', code: 'OAUTH_AUTHORIZATION_FAILED', forgetRegistration: false },
    ],
  ])('%s', (_name, error, record) => {
    expect(failureRecord(error)).toEqual(record);
  });
});

describe('recordWithFailure', () => {
  const tokens = { accessToken: 'at', scopes: [], resource: 'r', clientId: 'c', obtainedAt: 0 };
  const client = (kind: 'dynamic' | 'static') => ({
    kind,
    clientId: 'c',
    redirectUris: ['http://127.0.0.1/cb'],
    registeredAt: 0,
  });
  const record = (kind: 'dynamic' | 'static'): StoreRecord => ({
    version: 1,
    issuer: 'https://as.example',
    client: client(kind),
    tokens,
  });

  it.each([
    ['a failure is noted, the rest kept', 'dynamic', false, record('dynamic')],
    [
      'a forgotten dynamic registration is dropped with its tokens',
      'dynamic',
      true,
      { version: 1, issuer: 'https://as.example' },
    ],
    ['a static client is never dropped', 'static', true, record('static')],
  ] as const)('%s', (_name, kind, forgetRegistration, expected) => {
    const next = recordWithFailure(
      record(kind),
      { kind: 'record', code: 'OAUTH_ACCESS_DENIED', forgetRegistration },
      7,
    );
    expect(next).toEqual({ ...expected, lastConsentFailure: { code: 'OAUTH_ACCESS_DENIED', at: 7 } });
  });
});
