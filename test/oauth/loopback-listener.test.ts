/**
 * The redirect listener over real sockets: loopback only, one-shot, strict about what it
 * answers, and never reflecting what it received.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { redirectUriFor, startCallbackListener, type CallbackListener } from '../../src/oauth/loopback-listener.js';

const issuer = 'https://as.example';
const state = 'STATE-CANARY-0123456789abcdefghijklmnopqrstu';
const good = `/callback?code=CODE-CANARY&state=${state}&iss=${encodeURIComponent(issuer)}`;
const logger = createLogger({ write: () => {} });
const listeners: CallbackListener[] = [];

afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

async function listen(maxInvalid?: number): Promise<CallbackListener> {
  const listener = await startCallbackListener({ logger, ...(maxInvalid ? { maxInvalid } : {}) });
  listener.expect({ issuer, state, issRequired: true });
  listeners.push(listener);
  return listener;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(
  listener: CallbackListener,
  path: string,
  options: { method?: string; host?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: listener.port,
        path,
        method: options.method ?? 'GET',
        headers: { host: options.host ?? `127.0.0.1:${listener.port}` },
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function refused(port: number, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.on('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

describe('callback listener', () => {
  it('LB-01 listens on 127.0.0.1 only', async () => {
    const listener = await listen();
    expect(listener.host).toBe('127.0.0.1');
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((info) => info && info.family === 'IPv4' && !info.internal);
    for (const info of external) expect(await refused(listener.port, info!.address)).toBe('ECONNREFUSED');
  });

  it('LB-01 refuses to bind anything but a loopback literal', async () => {
    for (const host of ['0.0.0.0', '::', 'localhost', '192.168.1.10']) {
      await expect(startCallbackListener({ logger, hosts: [host] })).rejects.toMatchObject({
        code: 'OAUTH_INVALID_CONFIG',
      });
    }
  });

  it('LB-02 LB-03 the redirect URI names the port of the socket that is listening', async () => {
    const listener = await listen();
    expect(listener.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:[1-9][0-9]{0,4}\/callback$/);
    expect(listener.redirectUri).toBe(redirectUriFor('127.0.0.1', listener.port));
    expect(await refused(listener.port)).toBe('connected');
    expect(redirectUriFor('::1', 4000)).toBe('http://[::1]:4000/callback');
  });

  it('LB-03 binds ::1 with a bracketed redirect URI when that is the loopback on offer', async () => {
    const listener = await startCallbackListener({ logger, hosts: ['::1'] }).catch(() => undefined);
    if (!listener) return; // no IPv6 loopback on this machine
    listeners.push(listener);
    expect(listener.redirectUri).toBe(`http://[::1]:${listener.port}/callback`);
  });

  it('LB-03 a busy fixed port is a clear error, not a redirect to a port we do not own', async () => {
    const first = await listen();
    await expect(startCallbackListener({ logger, port: first.port })).rejects.toMatchObject({
      code: 'OAUTH_CALLBACK_PORT_BUSY',
    });
  });

  it('LB-04 consumes the first valid callback, then closes: a replay is refused', async () => {
    const listener = await listen();
    const answer = await get(listener, good);
    expect(answer.status).toBe(200);
    const outcome = await listener.outcome;
    expect(outcome.kind).toBe('code');
    expect(outcome.kind === 'code' && outcome.callbackUrl.searchParams.get('code')).toBe('CODE-CANARY');
    await expect.poll(() => refused(listener.port)).toBe('ECONNREFUSED');
  });

  it('LB-04 CB-02 a wrong state gets 400 and does not end the flow; the right one still completes', async () => {
    const listener = await listen();
    const wrong = await get(listener, `/callback?code=EVIL&state=wrong&iss=${encodeURIComponent(issuer)}`);
    expect(wrong.status).toBe(400);
    expect((await get(listener, good)).status).toBe(200);
    expect((await listener.outcome).kind).toBe('code');
  });

  it('LB-04 gives up after too many invalid callbacks (bounded DoS)', async () => {
    const listener = await listen(3);
    for (let index = 0; index < 3; index += 1) await get(listener, '/callback?state=nope');
    expect(await listener.outcome).toEqual({ kind: 'fail', reason: 'too many invalid callback requests' });
  });

  it.each([
    ['/', 'GET', undefined, 404],
    ['/callback/', 'GET', undefined, 404],
    ['/CALLBACK', 'GET', undefined, 404],
    [good, 'POST', undefined, 405],
    [good, 'GET', 'evil.example:PORT', 403],
    [good, 'GET', 'localhost.evil.example:PORT', 403],
    [`/callback?pad=${'x'.repeat(9000)}`, 'GET', undefined, 414],
  ])('LB-06 %s by %s with Host %s → %i, flow not consumed', async (path, method, host, status) => {
    const listener = await listen();
    const answer = await get(listener, path, {
      method,
      ...(host ? { host: host.replace('PORT', String(listener.port)) } : {}),
    });
    expect(answer.status).toBe(status);
    expect((await get(listener, good)).status).toBe(200);
  });

  it.each([
    ['success', good],
    [
      'denied',
      `/callback?error=access_denied&error_description=%3Cscript%3Ealert(1)%3C%2Fscript%3E&error_uri=https%3A%2F%2Fevil.example&state=${state}&iss=${encodeURIComponent(issuer)}`,
    ],
    ['unknown error', `/callback?error=weird_CANARY&state=${state}&iss=${encodeURIComponent(issuer)}`],
    ['bad state', '/callback?code=CODE-CANARY&state=STATE-OTHER-CANARY'],
    [
      'bad iss',
      `/callback?code=CODE-CANARY&state=${state}&iss=https%3A%2F%2Fattacker.example&error_description=DESC-CANARY`,
    ],
  ])('LB-07 LB-08 the %s page is static and reflects nothing it received', async (_, path) => {
    const listener = await listen();
    const answer = await get(listener, `${path}&redirect=https://evil.example&next=//evil.example`);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers.location).toBeUndefined();
    expect(answer.body).not.toMatch(/CANARY|script|evil|attacker|<img|<iframe|<link|src=|href=/i);
  });
});
