import { describe, expect, it } from 'vitest';
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { DEFAULT_CONSENT_WAIT_MS, loadConfig, parseSchoolUrl } from '../../src/config/index.js';
import { looseSecretFileWarning, secretFromFileText } from '../../src/secret-file.js';

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
    const config = loadConfig(
      ['--demo', '--toolsets', 'courses,orders', '--read-only', '--exclude-tools', 'delete_course'],
      env,
    );
    expect(config.toolsets).toEqual({ mode: 'toolsets', toolsets: ['courses', 'orders'] });
    expect(config.readOnly).toBe(true);
    expect(config.excludeTools).toEqual(['delete_course']);
    expect(loadConfig(['--demo', '--toolsets', 'dynamic'], env).toolsets).toEqual({ mode: 'dynamic' });
    expect(() => loadConfig(['--demo', '--toolsets', 'all,dynamic'], env)).toThrow(/--toolsets/);
  });

  it('recognises the subcommands and reads the sandbox arguments', () => {
    expect(loadConfig(['login', '--demo', '--scopes', 'courses:read orders:read'], env)).toMatchObject({
      command: 'login',
      scopes: ['courses:read', 'orders:read'],
    });
    expect(loadConfig(['--demo', '--scopes', 'least'], env).scopes).toBe('least');
    expect(loadConfig(['--demo'], env).scopes).toBeUndefined();
    expect(loadConfig(['status', '--school', 'https://a.example'], env).command).toBe('status');
    expect(loadConfig(['sandbox', '--port', '8080', '--auto-approve'], env)).toMatchObject({
      command: 'sandbox',
      sandbox: { port: 8080, autoApprove: true },
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
    expect(() => loadConfig(['--demo', '--consent-wait', '0'], env)).toThrow(
      /--consent-wait must be a number of seconds between 0.1 and 600/,
    );
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
    expect(() => loadConfig(['--demo', '--link-wait', '120'], env)).toThrow(
      /--link-wait \(120 s\) cannot be longer than --consent-wait \(45 s\)/,
    );
    expect(loadConfig(['--demo', '--link-wait', '120', '--consent-wait', '120'], env)).toMatchObject({
      linkWaitMs: 120_000,
      consentWaitMs: 120_000,
    });
  });

  it('returns a frozen config', () => {
    expect(Object.isFrozen(loadConfig(['--demo'], env))).toBe(true);
  });
});

describe('ST-08 secrets outside argv', () => {
  const SCHOOL = ['--school', 'https://school.example'];

  it('ST-08 warns about a secret given in argv, naming the file flag and the variable', () => {
    const config = loadConfig(
      [
        ...SCHOOL,
        '--http',
        '--http-secret',
        'a-secret-of-twenty-chars',
        '--client-id',
        'c',
        '--client-secret',
        'client-secret-value',
      ],
      {},
    );
    expect(config.warnings).toHaveLength(2);
    expect(config.warnings[0]).toMatch(
      /--http-secret .*\/proc\/<pid>\/cmdline.*--http-secret-file FILE or SCHOOL_MCP_HTTP_SECRET/,
    );
    expect(config.warnings[1]).toMatch(/--client-secret .*--client-secret-file FILE or SCHOOL_MCP_CLIENT_SECRET/);
    expect(config.warnings.join('\n')).not.toMatch(/a-secret-of-twenty-chars|client-secret-value/);
  });

  it('ST-08 takes the secrets from the environment and from files without a warning', () => {
    const fromEnv = loadConfig([...SCHOOL, '--http', '--client-id', 'c'], {
      SCHOOL_MCP_HTTP_SECRET: 'env-secret-of-20-chars',
      SCHOOL_MCP_CLIENT_SECRET: 'env-client',
    });
    expect(fromEnv).toMatchObject({
      clientSecret: 'env-client',
      http: { secret: 'env-secret-of-20-chars' },
      warnings: [],
    });
    const fromFiles = loadConfig(
      [
        ...SCHOOL,
        '--http',
        '--http-secret-file',
        '/run/http',
        '--client-id',
        'c',
        '--client-secret-file',
        '/run/client',
      ],
      { SCHOOL_MCP_HTTP_SECRET: 'env-secret-of-20-chars' },
    );
    expect(fromFiles).toMatchObject({
      clientSecret: undefined,
      clientSecretFile: '/run/client',
      http: { secret: undefined, secretFile: '/run/http' },
      warnings: [],
    });
  });

  it('ST-08 refuses a secret and its file together, and --http-secret-file without --http', () => {
    expect(() =>
      loadConfig([...SCHOOL, '--http', '--http-secret', 'a-secret-of-twenty-chars', '--http-secret-file', 'f'], {}),
    ).toThrow(/exclude each other/);
    expect(() => loadConfig([...SCHOOL, '--client-secret', 's', '--client-secret-file', 'f'], {})).toThrow(
      /exclude each other/,
    );
    expect(() => loadConfig([...SCHOOL, '--http-secret-file', 'f'], {})).toThrow(/go with --http/);
  });

  it('ST-08 a remote bind may take its secret from a file', () => {
    const config = loadConfig(
      [...SCHOOL, '--http', '--host', '10.0.0.5', '--allow-remote', '--http-secret-file', 'f'],
      {},
    );
    expect(config.http?.secretFile).toBe('f');
  });

  it('ST-08 reads a secret file: one trailing line break dropped, nothing else accepted', () => {
    expect(secretFromFileText('s3cret-value\n', '--http-secret-file')).toBe('s3cret-value');
    expect(secretFromFileText('s3cret-value\r\n', '--http-secret-file')).toBe('s3cret-value');
    expect(() => secretFromFileText('\n', '--http-secret-file')).toThrow(/empty/);
    expect(() => secretFromFileText('one\ntwo\n', '--http-secret-file')).toThrow(/more than one line/);
    expect(() => secretFromFileText(' padded ', '--http-secret-file')).toThrow(/spaces/);
    expect(looseSecretFileWarning(0o100644, '--http-secret-file', '/run/s')).toMatch(/other users.*644/);
    expect(looseSecretFileWarning(0o100600, '--http-secret-file', '/run/s')).toBeUndefined();
  });
});
