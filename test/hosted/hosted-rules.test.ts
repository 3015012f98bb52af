import { describe, expect, it } from 'vitest';
import { checkClientRedirectUri } from '../../src/hosted/client-redirect.js';
import { cookieValue } from '../../src/hosted/browser-binding.js';
import { callerKey, parsePublicUrl } from '../../src/hosted/index.js';
import { buildBearerChallenge, resourceMetadataDocuments } from '../../src/hosted/resource-metadata.js';

describe('the public URL (pure)', () => {
  it('derives the MCP endpoint and the school callback, without a trailing slash', () => {
    expect(parsePublicUrl('https://mcp.school.example/')).toEqual({
      ok: true,
      url: {
        base: 'https://mcp.school.example',
        path: '',
        mcpUrl: 'https://mcp.school.example/mcp',
        schoolCallback: 'https://mcp.school.example/oauth/callback',
      },
    });
    expect(parsePublicUrl('https://school.example/tools/')).toMatchObject({
      ok: true,
      url: { base: 'https://school.example/tools', mcpUrl: 'https://school.example/tools/mcp' },
    });
  });

  it.each([
    ['plain http on a name', 'http://mcp.school.example'],
    ['user information', 'https://ada@mcp.school.example'],
    ['a query', 'https://mcp.school.example/?a=1'],
    ['not a URL', 'mcp.school.example'],
  ])('HOST-01 refuses a public URL with %s', (_label, value) => {
    expect(parsePublicUrl(value).ok).toBe(false);
  });

  it('accepts plain http on loopback, for tests and the demo', () => {
    expect(parsePublicUrl('http://127.0.0.1:8080').ok).toBe(true);
    expect(parsePublicUrl('http://localhost:8080').ok).toBe(true);
  });
});

describe('MCP client redirect URIs (pure)', () => {
  it.each([
    ['https://chat.example/callback', true],
    ['http://127.0.0.1:3000/callback', true],
    ['http://[::1]:3000/callback', true],
    ['http://localhost:3000/callback', true],
    ['http://chat.example/callback', false],
    ['https://chat.example/callback#frag', false],
    ['https://user:pass@chat.example/callback', false],
    ['com.example.app:/callback', false],
    ['data:text/html,hi', false],
    [42, false],
  ])('HOST-05 %s is registrable: %s', (uri, ok) => {
    expect(checkClientRedirectUri(uri).ok).toBe(ok);
  });
});

describe('protected resource metadata and challenge (pure)', () => {
  const url = parsePublicUrl('https://school.example/tools');
  if (!url.ok) throw new Error(url.reason);

  it('HOST-01 puts the metadata of /mcp at the RFC 9728 §3.1 path and names itself as resource and server', () => {
    const documents = resourceMetadataDocuments(url.url, ['mcp']);
    expect([...documents.keys()][0]).toBe('/.well-known/oauth-protected-resource/tools/mcp');
    expect(documents.get('/.well-known/oauth-protected-resource/tools')).toMatchObject({
      resource: 'https://school.example/tools',
      authorization_servers: ['https://school.example/tools'],
    });
  });

  it('HOST-01 challenges without an error code when no token came (RFC 6750 §3.1), with invalid_token otherwise', () => {
    expect(buildBearerChallenge(url.url, 'missing')).toBe(
      'Bearer resource_metadata="https://school.example/.well-known/oauth-protected-resource/tools/mcp"',
    );
    expect(buildBearerChallenge(url.url, 'invalid')).toMatch(
      /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="https:\/\/school.example\//,
    );
  });

  it('reads one cookie of a Cookie header', () => {
    expect(cookieValue('a=1; school_mcp_flow=x=y; b=2', 'school_mcp_flow')).toBe('x=y');
    expect(cookieValue(undefined, 'a')).toBeUndefined();
  });
});

describe('whose MCP endpoint and sessions a request reaches (pure)', () => {
  it('HOST-61 keys a caller by person and client, not by grant, and no two pairs share a key', () => {
    expect(callerKey({ sub: 'usr_ada', clientId: 'c1', grantId: 'g1' } as { sub: string; clientId: string })).toBe(
      callerKey({ sub: 'usr_ada', clientId: 'c1' }),
    );
    const keys = [
      callerKey({ sub: 'usr_ada', clientId: 'c1' }),
      callerKey({ sub: 'usr_ada', clientId: 'c2' }),
      callerKey({ sub: 'usr_grace', clientId: 'c1' }),
      callerKey({ sub: 'a b', clientId: 'c' }),
      callerKey({ sub: 'a', clientId: 'b c' }),
      callerKey({ sub: 'a","b', clientId: 'c' }),
      callerKey({ sub: 'a', clientId: 'b","c' }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});
