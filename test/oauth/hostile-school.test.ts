/**
 * Small hostile servers on 127.0.0.1: redirects, non-JSON and oversized answers, corrupt and
 * world-readable token stores. Each records its calls, so "never called" is asserted.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { chmod, lstat, readdir, writeFile, mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverSchool } from '../../src/oauth/discovery.js';
import { parseSchoolUrl } from '../../src/oauth/index.js';
import { createSchoolFetch } from '../../src/oauth/school-fetch.js';
import { storeFileName } from '../../src/oauth/token-store.js';
import { fakeBrowser } from './support/fake-browser.js';
import { createHarness, READ_COURSES, type Harness } from './support/harness.js';

let harness: Harness;
const servers: Server[] = [];
beforeEach(async () => {
  harness = await createHarness();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  await harness.cleanup();
});

async function mock(
  handler: (req: IncomingMessage, res: ServerResponse, base: string) => void,
): Promise<{ base: string; calls: string[] }> {
  const calls: string[] = [];
  let base = '';
  const server = createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    handler(req, res, base);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, calls };
}

const discover = (base: string) =>
  discoverSchool(parseSchoolUrl(base), createSchoolFetch({ maxBodyBytes: 64 * 1024 }), harness.logger);

describe('hostile metadata', () => {
  it.each([302, 307, 308])('MD-03 a %i on the metadata is not followed; the target sees nothing', async (status) => {
    const elsewhere = await mock((_, res) => res.end('{}'));
    const school = await mock((_, res) => {
      res.writeHead(status, { location: `${elsewhere.base}/.well-known/oauth-authorization-server` });
      res.end();
    });
    await expect(discover(school.base)).rejects.toMatchObject({ code: 'OAUTH_UNEXPECTED_REDIRECT' });
    expect(elsewhere.calls).toEqual([]);
  });

  it.each([
    ['an HTML login page', 'text/html', '<!doctype html><form>sign in</form>'],
    ['an array', 'application/json', '[]'],
    ['null', 'application/json', 'null'],
    ['a string', 'application/json', '"x"'],
    ['truncated JSON', 'application/json', '{"issuer":'],
  ])('MD-04 %s is a typed error naming no body', async (_, type, body) => {
    const school = await mock((_, res) => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    });
    const error = await discover(school.base).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: expect.stringMatching(/^OAUTH_(INVALID_METADATA|DISCOVERY_FAILED)$/) });
    expect((error as Error).message).not.toContain('sign in');
  });

  it('MD-04 an oversized document is cut off', async () => {
    const school = await mock((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ issuer: 'x', pad: 'y'.repeat(5 * 1024 * 1024) }));
    });
    await expect(discover(school.base)).rejects.toMatchObject({ code: 'OAUTH_RESPONSE_TOO_LARGE' });
  });

  it('MD-02 metadata whose token endpoint is on another origin is refused; that origin is never called', async () => {
    const elsewhere = await mock((_, res) => res.end('{}'));
    const school = await mock((req, res, base) => {
      res.writeHead(req.url?.includes('oauth-authorization-server') ? 200 : 404, {
        'content-type': 'application/json',
      });
      res.end(
        JSON.stringify({
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${elsewhere.base}/token`,
          code_challenge_methods_supported: ['S256'],
        }),
      );
    });
    await expect(discover(school.base)).rejects.toMatchObject({ code: 'OAUTH_INVALID_METADATA' });
    expect(elsewhere.calls).toEqual([]);
  });
});

describe('token store on the way to the school', () => {
  it('ST-04 a corrupt store is set aside and the user simply signs in again', async () => {
    const sandbox = await harness.sandbox({ autoApprove: true });
    const dir = join(harness.dir, 'store');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(join(dir, storeFileName(sandbox.issuer)), '{"version":1, "tokens": CORRUPT-CANARY', {
      mode: 0o600,
    });
    const browser = fakeBrowser();
    const session = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser });
    await expect(session.accessToken(READ_COURSES)).resolves.toMatch(/\S+/);
    expect(browser.prompts).toHaveLength(1);
    expect((await readdir(dir)).some((name) => name.includes('.corrupt-'))).toBe(true);
    expect(harness.lines.join('\n')).not.toContain('CORRUPT-CANARY');
  });

  it('ST-01 a world-readable store is tightened to 0600 and still used', async () => {
    const sandbox = await harness.sandbox({ autoApprove: true });
    const first = harness.session({ schoolUrl: new URL(sandbox.url), prompter: fakeBrowser() });
    const token = await first.accessToken(READ_COURSES);
    const path = join(harness.dir, 'store', storeFileName(sandbox.issuer));
    await chmod(path, 0o644);
    const browser = fakeBrowser();
    const second = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser });
    expect(await second.accessToken(READ_COURSES)).toBe(token);
    expect((await lstat(path)).mode & 0o777).toBe(0o600);
    expect(browser.prompts).toEqual([]);
    expect(harness.lines.join('\n')).not.toContain(token);
  });
});
