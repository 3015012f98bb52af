import { request, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainGraceMs } from '../../src/hosted/index.js';
import { SANDBOX_STAFF } from '@school-mcp/sandbox';
import { exchange as rawHttp, jsonRpcHeaders, openSocket } from '../transports/support/raw-http.js';
import { exchange, registerMcpClient, signIn, startHosted, type Hosted } from '../app/support/hosted-harness.js';

describe('the grace period of a drain', () => {
  it('is --drain-seconds in milliseconds, and 0 for 0 or anything that is not a positive number', () => {
    expect(drainGraceMs(10)).toBe(10_000);
    expect(drainGraceMs(0.5)).toBe(500);
    expect(drainGraceMs(0)).toBe(0);
    expect(drainGraceMs(-1)).toBe(0);
    expect(drainGraceMs(Number.NaN)).toBe(0);
  });
});

describe('a hosted server draining with an event stream open', () => {
  let hosted: Hosted;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    hosted = await startHosted({ tools: true, schoolScopes: ['account:read', 'courses:read'] });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await hosted?.close();
  });

  it('SCL-04 ends the open event stream of a 2025-11-25 session at once, refuses a new one, and so does not wait out its grace period', async () => {
    const registered = await registerMcpClient(hosted.base);
    const { code, verifier } = await signIn(hosted, registered, SANDBOX_STAFF[0]!.sub);
    const accessToken = String((await exchange(hosted.base, registered, code, verifier)).body.access_token);
    const port = Number(new URL(hosted.server.listenUrl).port);
    const initialize = await rawHttp(port, {
      headers: jsonRpcHeaders(accessToken),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'drain', version: '1' } },
      }),
    });
    const session = initialize.headers['mcp-session-id'];
    expect(initialize.status, initialize.body).toBe(200);
    expect(typeof session).toBe('string');
    const initialized = await rawHttp(port, {
      headers: jsonRpcHeaders(accessToken, { 'mcp-session-id': String(session), 'mcp-protocol-version': '2025-11-25' }),
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(initialized.status).toBe(202);

    const stream = await new Promise<IncomingMessage>((resolve, reject) => {
      const get = request(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'GET',
          agent: false,
          headers: {
            host: `127.0.0.1:${port}`,
            accept: 'text/event-stream',
            authorization: `Bearer ${accessToken}`,
            'mcp-session-id': String(session),
            'mcp-protocol-version': '2025-11-25',
          },
        },
        resolve,
      );
      get.on('error', reject);
      get.end();
    });
    expect(stream.statusCode).toBe(200);
    expect(stream.headers['content-type']).toMatch(/text\/event-stream/);
    const ended = new Promise<'ended'>((resolve) => {
      stream.resume();
      stream.on('end', () => resolve('ended'));
      stream.on('close', () => resolve('ended'));
    });

    // A second stream asked for on a connection that is already open when the drain starts.
    const late = await openSocket(port, sockets);
    late.socket.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n`);
    // Answered after the line above was written, so the server has read it: that connection is busy, not idle.
    expect((await rawHttp(port, { method: 'GET', path: '/healthz' })).status).toBe(200);

    // A grace period no test waits out: the drain ends only because the streams were ended or refused.
    const drained = hosted.server.drain(10 * 60 * 1000);
    expect(await ended).toBe('ended');
    late.socket.write(
      `Authorization: Bearer ${accessToken}\r\nMcp-Session-Id: ${String(session)}\r\nMcp-Protocol-Version: 2025-11-25\r\n\r\n`,
    );
    await late.closed;
    expect(late.received()).toMatch(/^HTTP\/1\.1 503 [\s\S]*\r\nretry-after: 1\r\n[\s\S]*"temporarily_unavailable"/i);
    expect(await drained).toBe('drained');
    expect(hosted.logLines.join('\n')).toMatch(/draining: \/readyz answers 503/);
  });
});
