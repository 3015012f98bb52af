import { describe, expect, it } from 'vitest';
import { defaultConfigDir, parseSchoolUrl } from '../../src/oauth/index.js';
import { grantedFromResponse, parseScope, satisfiesAny, unionScopes } from '../../src/oauth/scopes.js';
import { wellKnownUrl } from '../../src/oauth/school-url.js';

describe('scope algebra', () => {
  it('one wholly granted alternative satisfies; no alternatives means any token', () => {
    expect(satisfiesAny(['a', 'b'], [['c'], ['a', 'b']])).toBe(true);
    expect(satisfiesAny(['a'], [['a', 'b']])).toBe(false);
    expect(satisfiesAny([], [])).toBe(true);
  });

  it('TK-04 a token response without scope means "as requested"; with scope it is authoritative', () => {
    expect(grantedFromResponse(undefined, ['b', 'a'])).toEqual(['a', 'b']);
    expect(grantedFromResponse('a', ['a', 'b', 'c'])).toEqual(['a']);
  });

  it('parses and unions space-delimited scopes without duplicates', () => {
    expect(parseScope('  b a  b ')).toEqual(['a', 'b']);
    expect(unionScopes(['b'], ['a', 'b'])).toEqual(['a', 'b']);
  });
});

describe('defaultConfigDir', () => {
  it('ST-01 follows XDG on Linux, and ignores a relative XDG_CONFIG_HOME', () => {
    expect(defaultConfigDir({ platform: 'linux', env: {}, homedir: '/home/ana' })).toBe('/home/ana/.config/school-mcp');
    expect(defaultConfigDir({ platform: 'linux', env: { XDG_CONFIG_HOME: '/x/cfg' }, homedir: '/home/ana' })).toBe(
      '/x/cfg/school-mcp',
    );
    expect(defaultConfigDir({ platform: 'linux', env: { XDG_CONFIG_HOME: 'rel' }, homedir: '/home/ana' })).toBe(
      '/home/ana/.config/school-mcp',
    );
  });

  it('uses Application Support on macOS and %APPDATA% on Windows, and honours the override', () => {
    expect(defaultConfigDir({ platform: 'darwin', env: {}, homedir: '/Users/ana' })).toBe(
      '/Users/ana/Library/Application Support/school-mcp',
    );
    expect(
      defaultConfigDir({
        platform: 'win32',
        env: { APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' },
        homedir: 'C:\\Users\\ana',
      }),
    ).toBe('C:\\Users\\ana\\AppData\\Roaming\\school-mcp');
    expect(
      defaultConfigDir({ platform: 'linux', env: { SCHOOL_MCP_CONFIG_DIR: '/srv/mcp' }, homedir: '/home/ana' }),
    ).toBe('/srv/mcp');
  });
});

describe('school URL', () => {
  it('accepts https and loopback http, pinning the issuer without a trailing slash', () => {
    expect(parseSchoolUrl('https://school.example/').expectedIssuer).toBe('https://school.example');
    expect(parseSchoolUrl('https://school.example/tenant1/').expectedIssuer).toBe('https://school.example/tenant1');
    expect(parseSchoolUrl('http://127.0.0.1:4000').insecureLoopback).toBe(true);
  });

  it.each([
    'http://school.example',
    'ftp://school.example',
    'https://user:pw@school.example',
    'https://school.example/?a=1',
    'not a url',
  ])('refuses %s with a clear error', (input) => {
    expect(() => parseSchoolUrl(input)).toThrowError(expect.objectContaining({ code: 'OAUTH_INVALID_SCHOOL_URL' }));
  });

  it('MD-01 inserts the well-known segment before the issuer path (RFC 8414 §3.1)', () => {
    expect(wellKnownUrl('https://as.example/tenant1', 'oauth-authorization-server').href).toBe(
      'https://as.example/.well-known/oauth-authorization-server/tenant1',
    );
  });
});
