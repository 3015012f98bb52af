/**
 * The bridge, unchanged, against an authorization server the project did not write:
 * node-oidc-provider (OpenID Certified), configured as the school's contract describes, with a
 * small protected API beside it that checks tokens by introspection. The built `school-mcp` runs
 * as a child process over stdio; the test plays the user who opens the printed sign-in link. One
 * session, in order: first-call sign-in, a call, refresh after a short-lived access token, step-up
 * to a write scope after a 403, and sign-out, checked at the engine's introspection.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngineSchool, type EngineSchool } from '../helpers/engine-school.js';
import { linkIn, startStdioServer, type StdioServer } from '../helpers/mcp-stdio.js';

type Result = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  isError?: boolean;
};

interface StoredTokens {
  accessToken: string;
  refreshToken?: string;
  clientId: string;
  scopes: string[];
  resource: string;
}

/** Access tokens live 2 s until the refresh step, so that the session has to refresh; 10 min after. */
let accessTokenSeconds = 2;

let school: EngineSchool;
let server: StdioServer;
let watching = true;
const signIns: string[] = [];

async function storedTokens(): Promise<StoredTokens> {
  for (const name of await readdir(server.configDir)) {
    if (!name.endsWith('.json')) continue;
    const record = JSON.parse(await readFile(join(server.configDir, name), 'utf8')) as { tokens?: StoredTokens };
    if (record.tokens?.accessToken) return record.tokens;
  }
  throw new Error('no tokens stored');
}

function textOf(result: Result): string {
  return result.content.map((block) => block.text ?? '').join('\n');
}

async function call(name: string, args: Record<string, unknown> = {}): Promise<Result> {
  return (await server.client.callTool({ name, arguments: args })) as Result;
}

/** Without elicitation the link reaches the user through the server's stderr line. */
async function playUser(): Promise<void> {
  while (watching) {
    const line = await server.waitForLine(/\/oauth\/authorize\?/, 60_000).catch(() => undefined);
    if (!line || !watching) return;
    const link = linkIn(line);
    signIns.push(link);
    await school.user.open(link).catch(() => undefined);
  }
}

beforeAll(async () => {
  school = await startEngineSchool({ accessTokenTtl: () => accessTokenSeconds });
  server = await startStdioServer({
    args: [
      '--school',
      school.url,
      '--no-browser',
      '--toolsets',
      'all',
      '--consent-wait',
      '20',
      '--link-wait',
      '20',
      '--log-level',
      'debug',
    ],
  });
  void playUser();
});

afterAll(async () => {
  watching = false;
  await server?.close();
  await school?.close();
});

describe('the bridge against node-oidc-provider, unchanged', () => {
  it('serves the API document of a school whose authorization server publishes only OpenID Connect discovery', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['list_courses', 'create_course', 'publish_course', 'sign_out']),
    );
  });

  it('RG-01 AZ-01 AZ-05 the first call signs in: registration, PKCE S256, resource-bound opaque token, then the call', async () => {
    const result = await call('list_courses');
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent?.['items']).toEqual([expect.objectContaining({ id: 'c1', title: 'Algebra' })]);

    expect(signIns).toHaveLength(1);
    const link = new URL(signIns[0]!);
    expect(link.searchParams.get('code_challenge_method')).toBe('S256');
    expect(link.searchParams.get('resource')).toBe(school.resource);
    expect(link.searchParams.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining(['courses:read', 'openid', 'profile']),
    );
    expect(school.registrations).toHaveLength(1);
    expect(school.registrations[0]).toMatchObject({
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    expect(school.grants['authorization_code']).toBe(1);

    const tokens = await storedTokens();
    expect(tokens.refreshToken).toBeTruthy();
    const view = await school.introspect(tokens.accessToken);
    expect(view).toMatchObject({ active: true, aud: school.resource, client_id: tokens.clientId });
    expect(String(view['scope']).split(' ')).toContain('courses:read');
  });

  it('a second call uses the same sign-in: no new link, no new registration', async () => {
    const result = await call('list_courses');
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(signIns).toHaveLength(1);
    expect(school.registrations).toHaveLength(1);
  });

  it("who_am_i answers from the engine's introspection: signed in, with the API scope", async () => {
    const result = await call('who_am_i');
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ signedIn: true, school: school.url });
    expect(result.structuredContent?.['scopes']).toContain('courses:read');
  });

  it('RF-03 RF-04 RF-08 once the short-lived access token has expired, the call refreshes, and the refresh token rotates', async () => {
    accessTokenSeconds = 600;
    const before = await storedTokens();
    await expect
      .poll(async () => (await school.introspect(before.accessToken))['active'], { timeout: 90_000, interval: 100 })
      .toBe(false);
    const refreshes = school.grants['refresh_token'] ?? 0;

    const result = await call('list_courses');
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(signIns).toHaveLength(1);
    expect(school.grants['refresh_token']).toBe(refreshes + 1);

    const now = await storedTokens();
    expect(now.accessToken).not.toBe(before.accessToken);
    expect(now.refreshToken).not.toBe(before.refreshToken);
    expect((await school.introspect(before.refreshToken!))['active']).toBe(false);
    expect(await school.introspect(now.accessToken)).toMatchObject({ active: true, aud: school.resource });
  });

  it('ERR-01 ERR-03 a 403 insufficient_scope leads to one consent for courses:write, and the call goes through', async () => {
    const before = school.api.requests.filter((request) => request.path === '/api/v1/courses/c1/publish').length;
    const result = await call('publish_course', { course_id: 'c1' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ id: 'c1', published: true });

    const publishes = school.api.requests
      .filter((request) => request.path === '/api/v1/courses/c1/publish')
      .slice(before);
    expect(publishes.map((request) => request.status)).toEqual([403, 200]);
    expect(signIns).toHaveLength(2);
    expect(new URL(signIns[1]!).searchParams.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining(['courses:read', 'courses:write']),
    );
    const tokens = await storedTokens();
    expect(String((await school.introspect(tokens.accessToken))['scope']).split(' ')).toEqual(
      expect.arrayContaining(['courses:read', 'courses:write']),
    );
  });

  it('a write the document declares is asked for nothing more once granted', async () => {
    const result = await call('create_course', { title: 'Geometry' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ title: 'Geometry', published: false });
    expect(signIns).toHaveLength(2);
  });

  it('RV-01 RV-03 sign_out revokes at the engine: both tokens are dead there, and nothing is left on disk', async () => {
    const tokens = await storedTokens();
    const result = await call('sign_out');
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toMatch(/revoked/i);
    expect((await school.introspect(tokens.accessToken))['active']).toBe(false);
    expect((await school.introspect(tokens.refreshToken!))['active']).toBe(false);
    await expect(storedTokens()).rejects.toThrow(/no tokens stored/);
  });
});
