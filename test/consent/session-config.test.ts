import { describe, expect, it } from 'vitest';
import { resolveSessionConfig } from '../../src/consent/session-config.js';
import { createLogger } from '../../src/log.js';

describe('session configuration', () => {
  const base = {
    schoolUrl: new URL('https://school.example'),
    storeDir: '/tmp/x',
    prompter: { present: async () => {} },
    logger: createLogger({ write: () => {} }),
  };

  it('LB-05 bounds the consent timeout to 10 minutes', () => {
    expect(resolveSessionConfig(base).consentTimeoutMs).toBe(300_000);
    expect(() => resolveSessionConfig({ ...base, consentTimeoutMs: 11 * 60_000 })).toThrowError(
      expect.objectContaining({ code: 'OAUTH_INVALID_CONFIG' }),
    );
  });

  it('refuses write scopes in a fixed read-only policy, bad ports and a secret without an id', () => {
    expect(() =>
      resolveSessionConfig({ ...base, readOnly: true, scopePolicy: { mode: 'fixed', scopes: ['coupons:write'] } }),
    ).toThrow(/read-only/);
    expect(() => resolveSessionConfig({ ...base, callbackPort: 70000 })).toThrow(/port/);
    expect(() => resolveSessionConfig({ ...base, clientSecret: 's' })).toThrow(/client id/);
    expect(() => resolveSessionConfig({ ...base, clientMetadataUrl: 'http://client.example/meta.json' })).toThrow(
      /https/,
    );
  });
});
