import { describe, expect, it } from 'vitest';
import { callbackPortChoice, registeredPort } from '../../src/oauth/callback-port.js';
import type { StoredClient } from '../../src/oauth/store-record.js';

const client = (kind: StoredClient['kind'], redirectUris: string[]): StoredClient => ({
  kind,
  clientId: 'c1',
  redirectUris,
  registeredAt: 1,
});

describe('the callback port (pure)', () => {
  it.each([
    ['a dynamic registration with a port', client('dynamic', ['http://127.0.0.1:53682/callback']), 53682],
    ['a dynamic registration on [::1]', client('dynamic', ['http://[::1]:40001/callback']), 40001],
    ['a dynamic registration whose URI has no port', client('dynamic', ['http://127.0.0.1/callback']), undefined],
    ['a dynamic registration without redirect URIs', client('dynamic', []), undefined],
    ['a pre-registered client', client('static', ['http://127.0.0.1:53682/callback']), undefined],
    ['no stored client', undefined, undefined],
  ])('reads the registered port of %s', (_what, stored, expected) => {
    expect(registeredPort(stored)).toBe(expected);
  });

  it.each([
    ['nothing configured or registered', undefined, undefined, { portIsFixed: false }],
    ['a registered port', undefined, 53682, { preferredPort: 53682, portIsFixed: false }],
    ['a configured port', 41000, undefined, { preferredPort: 41000, portIsFixed: true }],
    ['a configured port over a registered one', 41000, 53682, { preferredPort: 41000, portIsFixed: true }],
    ['a configured port 0 (any port the system gives)', 0, 53682, { portIsFixed: true }],
  ])('LB-03 listens with %s', (_what, configured, registered, expected) => {
    const stored = registered ? client('dynamic', [`http://127.0.0.1:${registered}/callback`]) : undefined;
    expect(callbackPortChoice(configured, stored)).toEqual(expected);
  });
});
