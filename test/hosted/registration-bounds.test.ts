/** The pure rules that bound open registration. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { admitToWindow, registrationKeyOf, type WindowCount } from '../../src/hosted/registration-window.js';
import { clientKeptUntil } from '../../src/hosted/store-adapter.js';

describe('the registration window (pure)', () => {
  const rule = { limit: 3, windowSeconds: 3600, buckets: 12 };

  it('HOST-44 admits up to the limit within the window, then says when room comes back', () => {
    let count: WindowCount | undefined;
    for (const at of [1000, 1100, 1400]) {
      const verdict = admitToWindow(count, rule, at);
      expect(verdict.admitted).toBe(true);
      if (verdict.admitted) count = verdict.count;
    }
    // The oldest bucket (900 to 1200, five-minute buckets) leaves the window at 1200 + 3600.
    expect(admitToWindow(count, rule, 2000)).toEqual({ admitted: false, retryAfterSeconds: 4800 - 2000 });
    expect(admitToWindow(count, rule, 4799).admitted).toBe(false);
    expect(admitToWindow(count, rule, 4800).admitted).toBe(true);
  });

  it('HOST-44 counts a bucket while any of it is in the window, never less than what the window holds', () => {
    const verdict = admitToWindow({ buckets: [[900, 3]] }, rule, 4799);
    expect(verdict.admitted).toBe(false);
    const later = admitToWindow({ buckets: [[900, 3]] }, rule, 4800);
    expect(later).toEqual({ admitted: true, count: { buckets: [[4800, 1]] } });
  });

  it('HOST-44 counts an IPv6 client by its /64, an IPv4 one by its address', () => {
    expect(registrationKeyOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(registrationKeyOf('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(registrationKeyOf('2001:db8::7')).toBe('2001:db8:0:0::/64');
    expect(registrationKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(registrationKeyOf('203.0.113.9')).toBe('203.0.113.9');
  });
});

describe('how long a registered client is kept (pure)', () => {
  it('HOST-43 keeps a client a day past its latest token, writing again only when a token outlives it', () => {
    expect(clientKeptUntil(10_000, 50_000)).toBe(50_000 + 86_400);
    expect(clientKeptUntil(200_000, 50_000)).toBeUndefined();
    expect(clientKeptUntil(undefined, 50_000)).toBeUndefined();
    expect(clientKeptUntil(10_000, undefined)).toBeUndefined();
  });
});

describe('the registration options', () => {
  const hosted = (args: string[], env: Record<string, string> = {}) =>
    loadConfig(['--hosted', '--demo', ...args], env).hosted;

  it('HOST-44 takes --registration-limit, --registration-cap and --registration-expiry or their variables, and refuses nonsense', () => {
    expect(hosted([])?.registration).toEqual({});
    expect(
      hosted(['--registration-limit', '5', '--registration-cap', '100', '--registration-expiry', '3600'])?.registration,
    ).toEqual({ perAddressPerHour: 5, cap: 100, unusedSeconds: 3600 });
    expect(
      hosted([], {
        SCHOOL_MCP_REGISTRATION_LIMIT: '7',
        SCHOOL_MCP_REGISTRATION_CAP: '70',
        SCHOOL_MCP_REGISTRATION_EXPIRY: '600',
      })?.registration,
    ).toEqual({ perAddressPerHour: 7, cap: 70, unusedSeconds: 600 });
    for (const [flag, value] of [
      ['--registration-limit', '0'],
      ['--registration-cap', 'many'],
      ['--registration-expiry', '10'],
      ['--registration-expiry', '9999999'],
    ]) {
      expect(() => hosted([flag!, value!])).toThrow(
        expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining(flag!) }),
      );
    }
    expect(() => loadConfig(['--demo', '--registration-cap', '5'], {})).toThrow(/go with --hosted/);
  });
});
