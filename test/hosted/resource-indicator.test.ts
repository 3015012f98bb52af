import { describe, expect, it } from 'vitest';
import { parsePublicUrl } from '../../src/hosted/index.js';
import { isOwnResource, normalizeResource, sameResource } from '../../src/hosted/resource-indicator.js';

function publicUrl(value: string) {
  const parsed = parsePublicUrl(value);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.url;
}

describe('resource indicators compared as RFC 3986 §6.2 normalised URIs (pure)', () => {
  it.each([
    ['the case of scheme and host', 'HTTPS://School.Example/mcp', 'https://school.example/mcp'],
    ['the default port', 'https://school.example:443/mcp', 'https://school.example/mcp'],
    ['an empty path and "/"', 'http://127.0.0.1:8080', 'http://127.0.0.1:8080/'],
    ['a trailing slash', 'https://school.example/mcp-gw/', 'https://school.example/mcp-gw'],
    ['a percent-encoded unreserved character', 'https://school.example/%6Dcp', 'https://school.example/mcp'],
    ['the case of a percent-encoding', 'https://school.example/a%2fb', 'https://school.example/a%2Fb'],
    ['dot segments', 'https://school.example/x/../mcp', 'https://school.example/mcp'],
  ])('HOST-27 counts %s as the same resource', (_label, a, b) => {
    expect(sameResource(a, b)).toBe(true);
    expect(normalizeResource(a)).toBe(normalizeResource(b));
  });

  it.each([
    ['another port', 'https://school.example:8443/mcp', 'https://school.example/mcp'],
    ['another scheme', 'http://school.example/mcp', 'https://school.example/mcp'],
    ['another path', 'https://school.example/mcpx', 'https://school.example/mcp'],
    ['a path under it', 'https://school.example/mcp/x', 'https://school.example/mcp'],
    ['a reserved character encoded', 'https://school.example/a%2Fb', 'https://school.example/a/b'],
    ['a query', 'https://school.example/mcp?x=1', 'https://school.example/mcp'],
  ])('HOST-27 tells apart %s', (_label, a, b) => {
    expect(sameResource(a, b)).toBe(false);
  });

  it.each([
    ['not a URI', 'school.example/mcp'],
    ['a fragment', 'https://school.example/mcp#x'],
    ['an empty fragment', 'https://school.example/mcp#'],
    ['user information', 'https://ada@school.example/mcp'],
  ])('HOST-27 names nothing with %s (RFC 8707 §2)', (_label, value) => {
    expect(normalizeResource(value)).toBeUndefined();
    expect(sameResource(value, value)).toBe(false);
  });

  it('HOST-27 accepts the public URL and the MCP endpoint as this server, with or without a path, and nothing else', () => {
    const root = publicUrl('http://127.0.0.1:8080');
    for (const indicator of [
      'http://127.0.0.1:8080',
      'http://127.0.0.1:8080/',
      'http://127.0.0.1:8080/mcp',
      'HTTP://127.0.0.1:8080/mcp/',
    ])
      expect(isOwnResource(root, indicator)).toBe(true);
    for (const indicator of [
      'http://127.0.0.1:8081/',
      'http://localhost:8080/',
      'http://127.0.0.1:8080/oauth/token',
      'https://127.0.0.1:8080/',
    ])
      expect(isOwnResource(root, indicator)).toBe(false);
    const mounted = publicUrl('https://school.example/mcp-gw');
    for (const indicator of [
      'https://school.example/mcp-gw',
      'https://school.example/mcp-gw/',
      'https://school.example:443/mcp-gw/mcp',
    ])
      expect(isOwnResource(mounted, indicator)).toBe(true);
    for (const indicator of ['https://school.example/', 'https://school.example/mcp', 'https://school.example/mcp-gwx'])
      expect(isOwnResource(mounted, indicator)).toBe(false);
  });
});
