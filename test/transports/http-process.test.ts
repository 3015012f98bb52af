/**
 * The built `school-mcp --http` as a child process against a school that records every header it
 * receives: nothing the MCP client sends is passed on upstream (HTTP-08), stdout stays silent,
 * and SIGTERM in the middle of a pending consent ends the process cleanly without losing tokens.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { completeConsent } from '@school-mcp/sandbox';
import { startHttpServer, type HttpServer } from '../helpers/mcp-http.js';
import { linkIn } from '../helpers/mcp-server.js';
import { exchange, jsonRpcHeaders } from './support/raw-http.js';
import { startRecordingSchool, type RecordingSchool } from './support/recording-school.js';

type Result = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  isError?: boolean;
};

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function school(): Promise<RecordingSchool> {
  const started = await startRecordingSchool();
  cleanups.push(() => started.close());
  return started;
}

async function serve(
  schoolUrl: string,
  options: Partial<Parameters<typeof startHttpServer>[0]> = {},
): Promise<HttpServer> {
  const server = await startHttpServer({
    args: ['--school', schoolUrl, '--no-browser', '--consent-wait', '60', '--link-wait', '60', '--toolsets', 'all'],
    ...options,
  });
  cleanups.push(() => server.close());
  return server;
}

/** Plays the user: approves the next sign-in link the server prints. */
async function approveNextLink(server: HttpServer): Promise<void> {
  const line = await server.waitForLine(/\/oauth\/authorize\?/, 30_000);
  const callback = await completeConsent(linkIn(line), 'allow');
  await (await fetch(callback)).text();
}

async function tokenFiles(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && /^tokens-.*\.json$/.test(entry.name)) {
      const path = join(entry.parentPath, entry.name);
      files.set(path, await readFile(path, 'utf8'));
    }
  }
  return files;
}

function portIsClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

describe('school-mcp --http as a process', () => {
  it("HTTP-08 forwards none of the MCP client's headers to the school, only its own token", async () => {
    const upstream = await school();
    const server = await serve(upstream.url, {
      headers: {
        cookie: 'session=stolen-cookie',
        'x-forwarded-for': '203.0.113.9',
        'mcp-param-school': 'evil.example',
        'x-api-key': 'inbound-api-key',
      },
    });
    const approving = approveNextLink(server);
    const orders = (await server.client.callTool({ name: 'list_orders', arguments: { per_page: 1 } })) as Result;
    await approving;
    expect(orders.isError).toBeFalsy();

    const api = upstream.seen.filter((request) => request.path.startsWith('/api/v1/'));
    expect(api.length).toBeGreaterThan(0);
    for (const request of api) {
      expect(request.headers['authorization']).toMatch(/^Bearer \S+$/);
      expect(request.headers['authorization']).not.toContain(server.secret);
    }
    // Nor do the sign-in's own requests (registration, token) carry anything of the client's.
    for (const request of upstream.seen) {
      for (const name of Object.keys(request.headers))
        expect(name).not.toMatch(/^(cookie|x-forwarded-for|mcp-param-|x-api-key|mcp-session-id|mcp-protocol-version)/);
      expect(JSON.stringify(request.headers)).not.toMatch(/stolen-cookie|203\.0\.113\.9|inbound-api-key/);
      expect(JSON.stringify(request.headers)).not.toContain(server.secret);
    }

    // A platform token presented inbound is neither accepted as the secret nor passed on.
    const before = upstream.seen.length;
    const stolen = api[0]!.headers['authorization']!;
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'list_orders', arguments: {} },
    });
    const refused = await exchange(Number(new URL(server.url).port), {
      headers: { ...jsonRpcHeaders(undefined), authorization: stolen },
      body: call,
    });
    expect(refused.status).toBe(401);
    expect(upstream.seen.length).toBe(before);
    expect(server.stdout.join('')).toBe('');
  });

  it('HTTP-04 uses the secret the user chose, and does not print it', async () => {
    const upstream = await school();
    const server = await serve(upstream.url, { secret: 'the-secret-this-user-chose-42' });
    const { tools } = await server.client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    expect(server.stderr.join('\n')).not.toContain('the-secret-this-user-chose-42');
  });

  it('ST-08 reads the secret from --http-secret-file: it is not in the command line, and it opens the door', async () => {
    const upstream = await school();
    const dir = await mkdtemp(join(tmpdir(), 'school-mcp-secret-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const secretFile = join(dir, 'http-secret');
    const secret = 'secret-from-a-file-0123456789';
    await writeFile(secretFile, `${secret}\n`, { mode: 0o600 });
    const server = await serve(upstream.url, {
      secret,
      env: { SCHOOL_MCP_HTTP_SECRET: '' },
      args: ['--school', upstream.url, '--no-browser', '--http-secret-file', secretFile],
    });
    const { tools } = await server.client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    if (existsSync(`/proc/${server.child.pid}/cmdline`)) {
      expect(await readFile(`/proc/${server.child.pid}/cmdline`, 'utf8')).not.toContain(secret);
    }
    expect(server.stderr.join('\n')).not.toContain(secret);
    expect(server.stderr.join('\n')).not.toMatch(/puts the secret in the command line/);
  });

  it('ST-08 warns on stderr when the secret is given in argv, without printing it', async () => {
    const upstream = await school();
    const secret = 'secret-given-in-argv-0123456789';
    const server = await serve(upstream.url, {
      secret,
      args: ['--school', upstream.url, '--no-browser', '--http-secret', secret],
    });
    await server.waitForLine(/--http-secret puts the secret in the command line/);
    expect(server.stderr.join('\n')).not.toContain(secret);
  });

  it('SIGTERM during a pending consent: exits, closes the port, keeps the token store', async () => {
    const upstream = await school();
    const server = await serve(upstream.url, {
      args: [
        '--school',
        upstream.url,
        '--no-browser',
        '--toolsets',
        'all',
        '--consent-wait',
        '600',
        '--link-wait',
        '600',
      ],
    });
    const port = Number(new URL(server.url).port);
    const approving = approveNextLink(server);
    expect(
      ((await server.client.callTool({ name: 'list_orders', arguments: { per_page: 1 } })) as Result).isError,
    ).toBeFalsy();
    await approving;
    const stored = await tokenFiles(server.configDir);
    expect(stored.size).toBe(1);

    // A call that needs a scope not granted yet waits for a consent nobody gives.
    const pending = server.client
      .callTool({ name: 'create_coupon', arguments: { code: 'NEVER', discount_type: 'percent', percent_off: 5 } })
      .catch((error: unknown) => error);
    const link = new URL(linkIn(await server.waitForLine(/\/oauth\/authorize\?/, 30_000)));
    const callbackPort = Number(new URL(link.searchParams.get('redirect_uri')!).port);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(await portIsClosed(port)).toBe(true);
    // The pending consent ended with the process: its one-shot callback listener is gone.
    expect(await portIsClosed(callbackPort)).toBe(true);
    // The client may try to resume the cut stream; closing it ends the call on its side.
    await server.client.close();
    expect(await pending).toBeInstanceOf(Error);
    expect(await tokenFiles(server.configDir)).toEqual(stored);

    // The next launch is still signed in, with what was granted before.
    const again = await serve(upstream.url, { configDir: server.configDir });
    const me = (await again.client.callTool({ name: 'who_am_i', arguments: {} })) as Result;
    expect(me.structuredContent?.['signedIn']).toBe(true);
    expect(me.structuredContent?.['scopes']).toEqual(expect.arrayContaining(['orders:read']));
  });
});
