import { McpServer } from '@modelcontextprotocol/server';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchoolMcpError } from '../../src/errors.js';
import { createInProcessBus } from '../../src/grant-store/index.js';
import { createCallerEndpoints, type CallerEndpoints } from '../../src/transports/caller-endpoints.js';
import { storeUnavailableAnswer } from '../../src/transports/store-unavailable.js';

const down = async (): Promise<never> => {
  throw new SchoolMcpError(
    'STORE_UNAVAILABLE',
    'The Redis grant store could not read a mcp-sessions record (connection refused).',
  );
};

describe('/mcp while the session store is away', () => {
  let endpoints: CallerEndpoints;
  let server: Server;
  let url: string;
  beforeAll(async () => {
    endpoints = createCallerEndpoints({
      maxCallers: 4,
      onerror: () => undefined,
      sharing: { store: { read: down, write: down, remove: down }, bus: createInProcessBus(), instance: 'a' },
    });
    server = createServer(
      (req, res) =>
        void endpoints.handle(req, res, { caller: 'ada', person: 'ada' }, () => ({
          factory: () => new McpServer({ name: 'down', version: '1.0.0' }),
          close: async () => undefined,
        })),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await endpoints.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (body: unknown, sessionId?: string) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }),
      },
      body: JSON.stringify(body),
    });

  it('SCL-35 answers an initialize and a request of a session it does not hold with 503, Retry-After: 1 and an OAuth-shaped body', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'agent', version: '1.0.0' } },
    };
    for (const response of [
      await post(initialize),
      await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, 'a-session-held-elsewhere'),
    ]) {
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('1');
      expect(await response.json()).toEqual({
        error: 'temporarily_unavailable',
        error_description: expect.stringContaining('unreachable'),
      });
    }
  });

  it('SCL-35 lets any other failure through as it was', () => {
    const other = new SchoolMcpError('STORE_RECORD_UNREADABLE', 'a record did not open');
    expect(() => storeUnavailableAnswer(other)).toThrow(other);
    expect(() => storeUnavailableAnswer(new Error('boom'))).toThrow('boom');
  });
});
