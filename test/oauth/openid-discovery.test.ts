/**
 * A school whose authorization server publishes only OpenID Connect discovery (no RFC 8414
 * document), as node-oidc-provider 8 and many deployed providers do. Over real HTTP on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '../../src/log.js';
import { discoverSchool } from '../../src/oauth/discovery.js';
import { parseSchoolUrl } from '../../src/oauth/index.js';
import { createSchoolFetch } from '../../src/oauth/school-fetch.js';

const servers: Server[] = [];
let lines: string[];
let logger: Logger;
beforeEach(() => {
  lines = [];
  logger = createLogger({ level: 'debug', write: (line) => lines.push(line) });
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server answering the given well-known documents (built from its own base) and 404 elsewhere. */
async function school(
  documents: Record<string, (base: string) => unknown>,
): Promise<{ base: string; calls: string[] }> {
  const calls: string[] = [];
  let base = '';
  const server = createServer((req, res) => {
    calls.push(req.url ?? '');
    const document = documents[req.url ?? ''];
    res.writeHead(document ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(document ? document(base) : { error: 'not_found' }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, calls };
}

const metadata = (base: string, overrides: Record<string, unknown> = {}) => ({
  issuer: base,
  authorization_endpoint: `${base}/authorize`,
  token_endpoint: `${base}/token`,
  registration_endpoint: `${base}/register`,
  code_challenge_methods_supported: ['S256'],
  response_types_supported: ['code'],
  ...overrides,
});

const discover = (base: string) => discoverSchool(parseSchoolUrl(base), createSchoolFetch(), logger);

describe('OpenID Connect discovery only', () => {
  it('is read when the RFC 8414 document is not published, and said so at debug level', async () => {
    const { base, calls } = await school({ '/.well-known/openid-configuration': (b) => metadata(b) });
    const found = await discover(base);
    expect(found.server.registration_endpoint).toBe(`${base}/register`);
    expect(calls.slice(0, 2)).toEqual(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']);
    expect(lines.some((line) => /debug/.test(line) && /OpenID Connect discovery/.test(line))).toBe(true);
  });

  it('MD-01 gets the same exact issuer check', async () => {
    const { base } = await school({ '/.well-known/openid-configuration': (b) => metadata(b, { issuer: `${b}/` }) });
    await expect(discover(base)).rejects.toMatchObject({ code: 'OAUTH_ISSUER_MISMATCH' });
  });

  it('MD-02 gets the same origin check on every endpoint', async () => {
    const { base } = await school({
      '/.well-known/openid-configuration': (b) => metadata(b, { registration_endpoint: 'http://127.0.0.1:9/register' }),
    });
    await expect(discover(base)).rejects.toMatchObject({ code: 'OAUTH_INVALID_METADATA' });
  });

  it('is not read when the RFC 8414 document exists: that one is the source of truth', async () => {
    const { base } = await school({
      '/.well-known/oauth-authorization-server': (b) => metadata(b),
      '/.well-known/openid-configuration': (b) => metadata(b, { registration_endpoint: `${b}/elsewhere` }),
    });
    expect((await discover(base)).server.registration_endpoint).toBe(`${base}/register`);
  });

  it('a school publishing neither is OAUTH_DISCOVERY_FAILED naming the school', async () => {
    const { base } = await school({});
    await expect(discover(base)).rejects.toMatchObject({
      code: 'OAUTH_DISCOVERY_FAILED',
      message: expect.stringContaining(base),
    });
  });
});
