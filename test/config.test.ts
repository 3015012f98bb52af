import { describe, expect, it } from 'vitest';
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { DEFAULT_CONSENT_WAIT_MS, loadConfig, parseSchoolUrl } from '../src/config.js';

const env = {};

describe('loadConfig', () => {
  it('reads the school from the flag, then from SCHOOL_MCP_SCHOOL', () => {
    expect(loadConfig(['--school', 'https://academy.example'], env).schoolUrl?.href).toBe('https://academy.example/');
    expect(loadConfig([], { SCHOOL_MCP_SCHOOL: 'https://env.example' }).schoolUrl?.href).toBe('https://env.example/');
  });

  it('needs a school or --demo, and not both', () => {
    expect(() => loadConfig([], env)).toThrow(/--school URL/);
    expect(() => loadConfig(['--demo', '--school', 'https://a.example'], env)).toThrow(/exclude/);
    expect(loadConfig(['--demo'], env).demo).toBe(true);
  });

  it('NET-07 refuses plain http except on loopback, and URLs with credentials, query or fragment', () => {
    expect(() => parseSchoolUrl('http://academy.example')).toThrow(/https/);
    expect(() => parseSchoolUrl('https://user:pw@academy.example')).toThrow(/user name/);
    expect(() => parseSchoolUrl('https://academy.example/?x=1')).toThrow(/query/);
    expect(() => parseSchoolUrl('javascript:alert(1)')).toThrow(/https/);
    expect(parseSchoolUrl('http://127.0.0.1:8080').port).toBe('8080');
  });

  it('NET-07 has no flag that turns certificate or http checks off', () => {
    for (const flag of ['--insecure', '--allow-insecure', '--allow-http', '--no-verify']) {
      expect(() => loadConfig(['--demo', flag], env)).toThrow(/Unknown option/);
    }
  });

  it('parses toolsets, read-only and exact tool lists', () => {
    const config = loadConfig(['--demo', '--toolsets', 'courses,orders', '--read-only', '--exclude-tools', 'delete_course'], env);
    expect(config.toolsets).toEqual({ mode: 'toolsets', toolsets: ['courses', 'orders'] });
    expect(config.readOnly).toBe(true);
    expect(config.excludeTools).toEqual(['delete_course']);
    expect(loadConfig(['--demo', '--toolsets', 'dynamic'], env).toolsets).toEqual({ mode: 'dynamic' });
    expect(() => loadConfig(['--demo', '--toolsets', 'all,dynamic'], env)).toThrow(/--toolsets/);
  });

  it('recognises the subcommands and passes sandbox arguments through', () => {
    expect(loadConfig(['login', '--demo', '--scopes', 'courses:read orders:read'], env)).toMatchObject({
      command: 'login',
      scopes: ['courses:read', 'orders:read'],
    });
    expect(loadConfig(['--demo', '--scopes', 'least'], env).scopes).toBe('least');
    expect(loadConfig(['--demo'], env).scopes).toBeUndefined();
    expect(loadConfig(['status', '--school', 'https://a.example'], env).command).toBe('status');
    expect(loadConfig(['sandbox', '--port', '8080', '--auto-approve'], env)).toMatchObject({
      command: 'sandbox',
      sandboxArgs: ['--port', '8080', '--auto-approve'],
    });
  });

  it('HTTP-01 binds loopback by default and refuses a remote bind without --allow-remote and a secret', () => {
    expect(loadConfig(['--demo', '--http'], env).http).toMatchObject({ host: '127.0.0.1', port: 0, secret: undefined });
    expect(() => loadConfig(['--demo', '--http', '--host', '0.0.0.0'], env)).toThrow(/--allow-remote/);
    expect(() => loadConfig(['--demo', '--http', '--host', '0.0.0.0', '--allow-remote'], env)).toThrow(/secret/);
    expect(() => loadConfig(['--demo', '--port', '8080'], env)).toThrow(/go with --http/);
  });

  it('answers with the link at once by default when it can only go into the result, and accepts a wait', () => {
    expect(loadConfig(['--demo'], env).linkWaitMs).toBe(0);
    expect(loadConfig(['--demo', '--link-wait', '30'], env).linkWaitMs).toBe(30_000);
    expect(() => loadConfig(['--demo', '--link-wait', '-1'], env)).toThrow(/--link-wait/);
    expect(() => loadConfig(['--demo', '--consent-wait', '0'], env)).toThrow(/--consent-wait must be a number of seconds between 0.1 and 600/);
  });

  it('waits 45 s for consent by default, under the request timeout of the SDK 1.x client at its defaults, and accepts tenths', () => {
    expect(loadConfig(['--demo'], env).consentWaitMs).toBe(45_000);
    expect(DEFAULT_CONSENT_WAIT_MS).toBe(45_000);
    expect(DEFAULT_CONSENT_WAIT_MS).toBeLessThan(DEFAULT_REQUEST_TIMEOUT_MSEC);
    expect(loadConfig(['--demo', '--consent-wait', '0.5'], env).consentWaitMs).toBe(500);
    expect(loadConfig(['--demo', '--consent-wait', '0.1'], env).consentWaitMs).toBe(100);
    expect(() => loadConfig(['--demo', '--consent-wait', '0.05'], env)).toThrow(/--consent-wait/);
  });

  it('keeps --link-wait within --consent-wait, which bounds every call', () => {
    expect(loadConfig(['--demo', '--link-wait', '45'], env).linkWaitMs).toBe(45_000);
    expect(() => loadConfig(['--demo', '--link-wait', '120'], env)).toThrow(/--link-wait \(120 s\) cannot be longer than --consent-wait \(45 s\)/);
    expect(loadConfig(['--demo', '--link-wait', '120', '--consent-wait', '120'], env)).toMatchObject({ linkWaitMs: 120_000, consentWaitMs: 120_000 });
  });

  it('returns a frozen config', () => {
    expect(Object.isFrozen(loadConfig(['--demo'], env))).toBe(true);
  });
});
