import { describe, expect, it } from 'vitest';
import { parsePublicUrl } from '../../src/hosted/index.js';
import { authorizationServerMetadataPaths, pathUnderMount } from '../../src/hosted/mount-path.js';
import { buildBearerChallenge, resourceMetadataDocuments } from '../../src/hosted/resource-metadata.js';

function publicUrl(value: string) {
  const parsed = parsePublicUrl(value);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.url;
}

const root = publicUrl('https://school.example');
const mounted = publicUrl('https://school.example/mcp-gw/');

describe('a public URL with a path (pure)', () => {
  it('HOST-28 serves every route under the path and nowhere else', () => {
    expect(mounted.path).toBe('/mcp-gw');
    expect(pathUnderMount(mounted, '/mcp-gw/oauth/token')).toBe('/oauth/token');
    expect(pathUnderMount(mounted, '/mcp-gw/mcp')).toBe('/mcp');
    expect(pathUnderMount(mounted, '/mcp-gw')).toBe('/');
    for (const path of ['/oauth/token', '/mcp', '/mcp-gwx/oauth/token', '/other/mcp-gw/mcp'])
      expect(pathUnderMount(mounted, path)).toBeUndefined();
    expect(root.path).toBe('');
    expect(pathUnderMount(root, '/oauth/token')).toBe('/oauth/token');
  });

  it('HOST-28 publishes the authorization server metadata at the RFC 8414 §3.1 and the OpenID Connect well-known URLs of the path', () => {
    expect(authorizationServerMetadataPaths(mounted)).toEqual([
      '/.well-known/oauth-authorization-server/mcp-gw',
      '/mcp-gw/.well-known/openid-configuration',
      '/.well-known/openid-configuration/mcp-gw',
    ]);
    expect(authorizationServerMetadataPaths(root)).toEqual([
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ]);
  });

  it('HOST-28 HOST-27 publishes each protected resource document at its RFC 9728 §3.1 URL, naming the resource that URL was made from (§3.3)', () => {
    const documents = resourceMetadataDocuments(mounted, ['mcp']);
    expect(Object.fromEntries([...documents].map(([path, document]) => [path, document.resource]))).toEqual({
      '/.well-known/oauth-protected-resource/mcp-gw/mcp': 'https://school.example/mcp-gw/mcp',
      '/.well-known/oauth-protected-resource/mcp-gw': 'https://school.example/mcp-gw',
    });
    for (const document of documents.values())
      expect(document.authorization_servers).toEqual(['https://school.example/mcp-gw']);
    expect(buildBearerChallenge(mounted, 'missing')).toBe(
      'Bearer resource_metadata="https://school.example/.well-known/oauth-protected-resource/mcp-gw/mcp"',
    );
  });
});
