/**
 * The pure rules behind the HTTP endpoint's door: Host and Origin allow-lists, the bearer
 * secret, what may be bound, and the command line that feeds them.
 */
import * as crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig, type HttpConfig } from '../../src/config/index.js';
import { checkHost, checkOrigin, normalizeAllowedOrigin } from '../../src/transports/index.js';
import { bindPolicy } from '../../src/transports/http-bind-policy.js';
import { generateSecret, isUsableSecret, secretFingerprint } from '../../src/transports/bearer-secret.js';
import { hostAllowList, ownLoopbackOrigins } from '../../src/transports/http-guards.js';

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const http = (overrides: Partial<HttpConfig> = {}): HttpConfig => ({
  host: '127.0.0.1',
  port: 0,
  secret: undefined,
  allowRemote: false,
  allowedOrigins: [],
  allowedHosts: [],
  ...overrides,
});

describe('HTTP-02 hostAllowList and checkHost', () => {
  const loopback = hostAllowList({ bindHost: '127.0.0.1', port: 8765, extraHosts: [] });

  it('HTTP-02 allows the three loopback names with our port only', () => {
    expect([...loopback].sort()).toEqual(['127.0.0.1:8765', '[::1]:8765', 'localhost:8765']);
    expect(checkHost(['LOCALHOST:8765'], loopback).allowed).toBe(true);
  });

  it.each([
    [['evil.example:8765']],
    [['localhost.evil.example:8765']],
    [['127.0.0.1.nip.io:8765']],
    [['127.0.0.1:8766']],
    [['127.0.0.1']],
    [[]],
    [undefined],
    [['127.0.0.1:8765', '127.0.0.1:8765']],
  ])('HTTP-02 refuses Host %j', (values) => {
    expect(checkHost(values, loopback).allowed).toBe(false);
  });

  it("HTTP-02 adds a specific bound address and the user's names, bare names on our port", () => {
    const list = hostAllowList({
      bindHost: '192.0.2.10',
      port: 9000,
      extraHosts: ['mcp.internal.example', 'proxy.example:443', '[2001:db8::1]'],
    });
    for (const host of [
      '192.0.2.10:9000',
      'mcp.internal.example:9000',
      'proxy.example:443',
      '[2001:db8::1]:9000',
      '127.0.0.1:9000',
    ]) {
      expect(checkHost([host], list).allowed, host).toBe(true);
    }
    expect(checkHost(['mcp.internal.example:9001'], list).allowed).toBe(false);
    expect(
      checkHost(['0.0.0.0:9000'], hostAllowList({ bindHost: '0.0.0.0', port: 9000, extraHosts: ['a.example'] }))
        .allowed,
    ).toBe(false);
  });

  it('HTTP-02 accepts a port-less Host only when the port is 80', () => {
    expect(checkHost(['localhost'], hostAllowList({ bindHost: '127.0.0.1', port: 80, extraHosts: [] })).allowed).toBe(
      true,
    );
  });

  it.each(['http://a.example', 'a.example/path', 'user@a.example', 'a.example:99999', ''])(
    'refuses --allowed-host %j',
    (entry) => {
      expect(() => hostAllowList({ bindHost: '127.0.0.1', port: 1, extraHosts: [entry] })).toThrow(
        expect.objectContaining({ code: 'HTTP_HOST_INVALID' }),
      );
    },
  );
});

describe('HTTP-03 checkOrigin', () => {
  it('HTTP-03 passes a request without Origin and refuses every Origin when none is allowed', () => {
    const none = new Set<string>();
    expect(checkOrigin(undefined, none).allowed).toBe(true);
    expect(checkOrigin([], none).allowed).toBe(true);
    for (const origin of ['null', 'http://127.0.0.1:8765', 'http://localhost:5173', 'about:blank', ''])
      expect(checkOrigin([origin], none).allowed, origin).toBe(false);
  });

  it('HTTP-03 matches a configured origin exactly and refuses two Origin headers', () => {
    const allowed = new Set([normalizeAllowedOrigin('HTTPS://App.Example:443/')]);
    expect([...allowed]).toEqual(['https://app.example']);
    expect(checkOrigin(['https://app.example'], allowed).allowed).toBe(true);
    expect(checkOrigin(['https://app.example:8443'], allowed).allowed).toBe(false);
    expect(checkOrigin(['http://app.example'], allowed).allowed).toBe(false);
    expect(checkOrigin(['https://app.example', 'https://app.example'], allowed).allowed).toBe(false);
  });

  it.each(['null', '*', 'app.example', 'https://app.example/path', 'file:///tmp', 'https://u:p@app.example'])(
    'HTTP-03 refuses to allow the origin %j',
    (origin) => {
      expect(() => normalizeAllowedOrigin(origin)).toThrow(expect.objectContaining({ code: 'HTTP_ORIGIN_INVALID' }));
    },
  );
});

describe('HTTP-11 ownLoopbackOrigins', () => {
  it('HTTP-11 names the loopback origins with the bound port, and nothing near them', () => {
    const own = ownLoopbackOrigins(8765);
    expect([...own].sort()).toEqual(['http://127.0.0.1:8765', 'http://[::1]:8765', 'http://localhost:8765']);
    for (const near of [
      'http://127.0.0.1:8766',
      'https://127.0.0.1:8765',
      'http://127.0.0.2:8765',
      'http://localhost',
      'null',
    ])
      expect(checkOrigin([near], own).allowed, near).toBe(false);
    expect(checkOrigin(['http://localhost:8765'], own).allowed).toBe(true);
  });
});

describe('HTTP-04 bearer secret', () => {
  it('HTTP-04 generates 32 random bytes per call', () => {
    const first = generateSecret();
    expect(Buffer.from(first, 'base64url')).toHaveLength(32);
    expect(generateSecret()).not.toBe(first);
    expect(isUsableSecret(first)).toBe(true);
  });

  it('HTTP-04 compares with crypto.timingSafeEqual after a length check', async () => {
    // Test files share a worker's modules, so another file may have loaded the transports before
    // the mock above existed: load them afresh, now bound to the mocked crypto.
    vi.resetModules();
    const { secretMatches } = await import('../../src/transports/bearer-secret.js');
    const timingSafeEqual = vi.mocked(crypto.timingSafeEqual);
    timingSafeEqual.mockClear();
    const secret = 'A'.repeat(43);
    expect(secretMatches(secret, secret)).toBe(true);
    expect(timingSafeEqual).toHaveBeenCalledTimes(1);
    expect(secretMatches(`${'A'.repeat(42)}B`, secret)).toBe(false);
    expect(timingSafeEqual).toHaveBeenCalledTimes(2);
    expect(secretMatches('A'.repeat(42), secret)).toBe(false);
    expect(secretMatches(undefined, secret)).toBe(false);
    expect(timingSafeEqual).toHaveBeenCalledTimes(2);
  });

  it('HTTP-04 the fingerprint stands for the secret without revealing it', () => {
    expect(secretFingerprint('one-secret-value-123')).toBe(secretFingerprint('one-secret-value-123'));
    expect(secretFingerprint('one-secret-value-123')).not.toBe(secretFingerprint('one-secret-value-124'));
    expect(secretFingerprint('one-secret-value-123')).not.toContain('one-secret');
  });

  it.each(['short', 'has a space in it!!', 'non-ascii-sécret-123'])('HTTP-04 refuses the secret %j', (secret) => {
    expect(isUsableSecret(secret)).toBe(false);
  });
});

describe('HTTP-01, HTTP-09 bindPolicy', () => {
  it('HTTP-01 binds loopback with a launch-made secret by default', () => {
    const policy = bindPolicy(http());
    expect(policy).toMatchObject({ host: '127.0.0.1', remote: false, chosenSecret: undefined });
  });

  it.each<[string, Partial<HttpConfig>]>([
    ['a reachable address without --allow-remote', { host: '192.0.2.10', secret: 'x'.repeat(32) }],
    ['a reachable address without a chosen secret', { host: '192.0.2.10', allowRemote: true }],
    ['every interface without --allowed-host', { host: '0.0.0.0', allowRemote: true, secret: 'x'.repeat(32) }],
    ['a secret that cannot travel in the header', { secret: 'has spaces in the secret' }],
  ])('HTTP-09 refuses to start with %s', (_label, overrides) => {
    expect(() => bindPolicy(http(overrides))).toThrow(expect.objectContaining({ code: 'HTTP_BIND_REFUSED' }));
  });

  it('HTTP-01 binds a reachable address only with all three: the flag, a chosen secret, the Host names', () => {
    const policy = bindPolicy(
      http({ host: '0.0.0.0', allowRemote: true, secret: 'x'.repeat(32), allowedHosts: ['mcp.example'] }),
    );
    expect(policy.remote).toBe(true);
  });
});

describe('the --http command line', () => {
  const env = {};
  it('HTTP-01 defaults to 127.0.0.1, port 0, no secret, nothing allowed', () => {
    expect(loadConfig(['--demo', '--http'], env).http).toEqual(http());
  });

  it('reads the secret from SCHOOL_MCP_HTTP_SECRET and the repeatable allow-lists', () => {
    const config = loadConfig(
      [
        '--demo',
        '--http',
        '--port',
        '8765',
        '--allowed-origin',
        'https://a.example',
        '--allowed-host',
        'h.example',
        '--allowed-host',
        'k.example',
      ],
      {
        SCHOOL_MCP_HTTP_SECRET: 'from-the-environment-123',
      },
    );
    expect(config.http).toEqual(
      http({
        port: 8765,
        secret: 'from-the-environment-123',
        allowedOrigins: ['https://a.example'],
        allowedHosts: ['h.example', 'k.example'],
      }),
    );
  });

  it.each([
    [['--demo', '--http', '--host', '0.0.0.0']],
    [['--demo', '--http', '--host', '0.0.0.0', '--allow-remote']],
    [['--demo', '--allowed-host', 'h.example']],
    [['--demo', '--allowed-origin', 'https://a.example']],
  ])('HTTP-01 refuses %j', (argv) => {
    expect(() => loadConfig(argv, env)).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });
});
