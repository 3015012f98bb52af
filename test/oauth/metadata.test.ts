import { describe, expect, it } from 'vitest';
import {
  assertPkceS256,
  mergeOpenIdConfiguration,
  validateResourceMetadata,
  validateServerMetadata,
} from '../../src/oauth/metadata.js';
import { parseSchoolUrl } from '../../src/oauth/school-url.js';

const target = parseSchoolUrl('https://as.example/tenant1');
const good = {
  issuer: 'https://as.example/tenant1',
  authorization_endpoint: 'https://as.example/oauth/authorize',
  token_endpoint: 'https://as.example/api/oauth/token',
  registration_endpoint: 'https://as.example/api/oauth/register',
  revocation_endpoint: 'https://as.example/api/oauth/revoke',
  code_challenge_methods_supported: ['S256'],
  response_types_supported: ['code'],
};

describe('authorization server metadata', () => {
  it('accepts a well-formed document', () => {
    expect(validateServerMetadata(good, target).issuer).toBe('https://as.example/tenant1');
  });

  it.each([
    'https://attacker.example',
    'https://as.example/tenant2',
    'https://as.example/tenant1/',
    'HTTPS://as.example/tenant1',
    'https://AS.example/tenant1',
  ])('MD-01 refuses the issuer %s (exact comparison, no normalisation)', (issuer) => {
    expect(() => validateServerMetadata({ ...good, issuer }, target)).toThrowError(
      expect.objectContaining({ code: 'OAUTH_ISSUER_MISMATCH' }),
    );
  });

  const hostile = [
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:text/html,x',
    'file:///etc/passwd',
    'http://as.example/token',
    'https://user:pw@as.example/t',
    'https://as.example/t#frag',
    'https://169.254.169.254/latest/meta-data/',
    'https://other-origin.example/token',
    'not a url',
  ];
  for (const field of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'revocation_endpoint']) {
    it.each(hostile)(`MD-02 refuses ${field} = %s`, (value) => {
      expect(() => validateServerMetadata({ ...good, [field]: value }, target)).toThrowError(
        expect.objectContaining({ code: 'OAUTH_INVALID_METADATA' }),
      );
    });
  }

  it.each([
    'http://0x7f000001/token',
    'http://2130706433/token',
    'http://[::ffff:127.0.0.1]/token',
    'https://127.0.0.1.nip.io/token',
    'https://as.example.evil.example/token',
    'https://as.example@evil.example/token',
  ])('MD-07 refuses %s by origin, without resolving it', (value) => {
    expect(() => validateServerMetadata({ ...good, token_endpoint: value }, target)).toThrowError(
      expect.objectContaining({ code: 'OAUTH_INVALID_METADATA' }),
    );
  });

  it('MD-02 allows plain http endpoints only for a loopback school', () => {
    const sandbox = parseSchoolUrl('http://127.0.0.1:4000');
    const document = {
      ...good,
      issuer: 'http://127.0.0.1:4000',
      authorization_endpoint: 'http://127.0.0.1:4000/a',
      token_endpoint: 'http://127.0.0.1:4000/t',
      registration_endpoint: undefined,
      revocation_endpoint: undefined,
    };
    expect(validateServerMetadata(document, sandbox).token_endpoint).toBe('http://127.0.0.1:4000/t');
    expect(() => validateServerMetadata({ ...document, token_endpoint: 'http://127.0.0.2:4000/t' }, sandbox)).toThrow(
      /origin/,
    );
  });

  it('AZ-07 keeps a query on the authorization endpoint but refuses one that presets our parameters', () => {
    expect(
      validateServerMetadata({ ...good, authorization_endpoint: 'https://as.example/authorize?tenant=x' }, target)
        .authorization_endpoint,
    ).toBe('https://as.example/authorize?tenant=x');
    for (const name of ['state', 'redirect_uri', 'code_challenge', 'client_id', 'response_type']) {
      expect(() =>
        validateServerMetadata({ ...good, authorization_endpoint: `https://as.example/authorize?${name}=x` }, target),
      ).toThrow(name);
    }
  });

  it.each([[[]], [null], ['x'], [42]])('MD-04 refuses a non-object document %j', (document) => {
    expect(() => validateServerMetadata(document, target)).toThrowError(
      expect.objectContaining({ code: 'OAUTH_INVALID_METADATA' }),
    );
  });

  it('MD-04 refuses an issuer of the wrong type', () => {
    expect(() => validateServerMetadata({ ...good, issuer: 123 }, target)).toThrowError(
      expect.objectContaining({ code: 'OAUTH_ISSUER_MISMATCH' }),
    );
  });
});

describe('PKCE support', () => {
  it.each([[undefined], [[]], [['plain']], [['s256']]])(
    'AZ-03 refuses code_challenge_methods_supported = %j, naming the value',
    (methods) => {
      expect(() => assertPkceS256({ code_challenge_methods_supported: methods as string[] | undefined })).toThrowError(
        expect.objectContaining({
          code: 'OAUTH_PKCE_UNSUPPORTED',
          message: expect.stringContaining(JSON.stringify(methods ?? null)),
        }),
      );
    },
  );

  it('AZ-03 proceeds when S256 is listed beside plain', () => {
    expect(() => assertPkceS256({ code_challenge_methods_supported: ['plain', 'S256'] })).not.toThrow();
  });
});

describe('protected resource metadata', () => {
  it('MD-05 accepts the school API naming the pinned issuer', () => {
    expect(
      validateResourceMetadata(
        {
          resource: 'https://as.example',
          authorization_servers: ['https://as.example/tenant1'],
          scopes_supported: ['a'],
        },
        target,
      ),
    ).toEqual({
      resource: 'https://as.example',
      scopes: ['a'],
    });
  });

  it('MD-05 refuses a resource elsewhere and an authorization server that changed', () => {
    expect(() =>
      validateResourceMetadata(
        { resource: 'https://evil.example/api', authorization_servers: ['https://as.example/tenant1'] },
        target,
      ),
    ).toThrow(/origin/);
    expect(() =>
      validateResourceMetadata(
        { resource: 'https://as.example', authorization_servers: ['https://other.example'] },
        target,
      ),
    ).toThrowError(expect.objectContaining({ code: 'OAUTH_ISSUER_MISMATCH' }));
  });
});

describe('OpenID discovery', () => {
  it('adds only a missing userinfo endpoint and reports disagreements (RFC 8414 wins)', () => {
    const server = validateServerMetadata(good, target);
    const merged = mergeOpenIdConfiguration(
      server,
      { ...good, token_endpoint: 'https://as.example/other', userinfo_endpoint: 'https://as.example/userinfo' },
      target,
    );
    expect(merged.server.token_endpoint).toBe(good.token_endpoint);
    expect(merged.server.userinfo_endpoint).toBe('https://as.example/userinfo');
    expect(merged.disagreements).toEqual(['token_endpoint']);
  });

  it('ignores an OpenID document naming another issuer', () => {
    const server = validateServerMetadata(good, target);
    expect(
      mergeOpenIdConfiguration(
        server,
        { issuer: 'https://evil.example', userinfo_endpoint: 'https://evil.example/u' },
        target,
      ).server,
    ).toBe(server);
  });
});
