import { describe, expect, it } from 'vitest';
import { HOSTED_SOCKET_LIMITS } from '../../src/hosted/hosted-limits.js';
import { publicHostAllowList, publicOriginAllowList } from '../../src/hosted/public-host.js';
import { parsePublicUrl, type PublicUrl } from '../../src/hosted/public-url.js';
import { checkHost, checkOrigin, nodeServerOptions } from '../../src/transports/index.js';

function publicUrl(text: string): PublicUrl {
  const parsed = parsePublicUrl(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.url;
}

describe('the hosted Host and Origin allow-lists', () => {
  it('HOST-23 answers for the public host (bare at the default port) and refuses loopback names on a public URL', () => {
    const allowed = publicHostAllowList({
      publicUrl: publicUrl('https://MCP.School.example/team'),
      listenPort: 8080,
      extraHosts: [],
    });
    expect(checkHost(['mcp.school.example'], allowed).allowed).toBe(true);
    expect(checkHost(['mcp.school.example:443'], allowed).allowed).toBe(true);
    expect(checkHost(['mcp.school.example:8443'], allowed).allowed).toBe(false);
    expect(checkHost(['127.0.0.1:8080'], allowed).allowed).toBe(false);
    expect(checkHost(['localhost:8080'], allowed).allowed).toBe(false);
    expect(checkHost(['evil.example'], allowed).allowed).toBe(false);
    expect(checkHost(undefined, allowed).allowed).toBe(false);
    expect(checkHost(['mcp.school.example', 'mcp.school.example'], allowed).allowed).toBe(false);
  });

  it('HOST-23 names the port when the public URL does, and takes loopback names when it is loopback', () => {
    const withPort = publicHostAllowList({
      publicUrl: publicUrl('https://mcp.school.example:8443'),
      listenPort: 8080,
      extraHosts: [],
    });
    expect([...withPort]).toEqual(['mcp.school.example:8443']);
    const loopback = publicHostAllowList({
      publicUrl: publicUrl('http://127.0.0.1:4000'),
      listenPort: 4000,
      extraHosts: [],
    });
    expect(checkHost(['localhost:4000'], loopback).allowed).toBe(true);
    expect(checkHost(['[::1]:4000'], loopback).allowed).toBe(true);
    expect(checkHost(['localhost:4001'], loopback).allowed).toBe(false);
  });

  it('HOST-23 adds the names a rewriting proxy sends with --allowed-host, and refuses malformed ones', () => {
    const allowed = publicHostAllowList({
      publicUrl: publicUrl('https://mcp.school.example'),
      listenPort: 8080,
      extraHosts: ['mcp-internal', 'Backend.local:9000'],
    });
    expect(checkHost(['mcp-internal'], allowed).allowed).toBe(true);
    expect(checkHost(['mcp-internal:8080'], allowed).allowed).toBe(true);
    expect(checkHost(['backend.local:9000'], allowed).allowed).toBe(true);
    expect(checkHost(['backend.local'], allowed).allowed).toBe(false);
    expect(() =>
      publicHostAllowList({
        publicUrl: publicUrl('https://mcp.school.example'),
        listenPort: 8080,
        extraHosts: ['https://x.example/'],
      }),
    ).toThrow(/--allowed-host/);
  });

  it('HOST-24 lets /mcp take no Origin or its own, and refuses other origins unless allowed', () => {
    const own = publicOriginAllowList(publicUrl('https://mcp.school.example/team'), []);
    expect(checkOrigin(undefined, own).allowed).toBe(true);
    expect(checkOrigin(['https://mcp.school.example'], own).allowed).toBe(true);
    expect(checkOrigin(['https://evil.example'], own).allowed).toBe(false);
    expect(checkOrigin(['null'], own).allowed).toBe(false);
    const widened = publicOriginAllowList(publicUrl('https://mcp.school.example'), ['https://chat.example/']);
    expect(checkOrigin(['https://chat.example'], widened).allowed).toBe(true);
  });

  it("HOST-22 sets limits for a public endpoint, far below Node's defaults, and bounds keep-alive", () => {
    expect(HOSTED_SOCKET_LIMITS.headersTimeoutMs).toBeLessThan(60_000);
    expect(HOSTED_SOCKET_LIMITS.requestTimeoutMs).toBeLessThan(300_000);
    expect(Number.isFinite(HOSTED_SOCKET_LIMITS.maxConnections)).toBe(true);
    expect(HOSTED_SOCKET_LIMITS.maxRequestsPerSocket).toBeGreaterThan(0);
    expect(HOSTED_SOCKET_LIMITS.keepAliveTimeoutMs).toBeLessThan(HOSTED_SOCKET_LIMITS.requestTimeoutMs);
    expect(nodeServerOptions(HOSTED_SOCKET_LIMITS).connectionsCheckingInterval).toBeLessThanOrEqual(1_000);
  });
});
