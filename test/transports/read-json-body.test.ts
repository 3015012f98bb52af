import { describe, expect, it } from 'vitest';
import { parseJsonBody, readJsonBody, withParsedBody } from '../../src/transports/read-json-body.js';

const URL_OF_ENDPOINT = 'http://127.0.0.1:1/mcp';
const post = (body: string, headers: Record<string, string> = {}) =>
  new Request(URL_OF_ENDPOINT, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('parseJsonBody', () => {
  it('gives the JSON value of a text, null and arrays included', () => {
    expect(parseJsonBody('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
    });
    expect(parseJsonBody('[1,2]')).toEqual([1, 2]);
    expect(parseJsonBody('null')).toBeNull();
  });

  it('gives nothing for an empty text or one that is not JSON', () => {
    expect(parseJsonBody('')).toBeUndefined();
    expect(parseJsonBody('{"jsonrpc":')).toBeUndefined();
  });
});

describe('readJsonBody', () => {
  it('parses a POST body once and hands on the same request', async () => {
    const request = post('{"jsonrpc":"2.0","id":7,"method":"tools/list"}');
    const read = await readJsonBody(request, 1024);
    expect(read.parsedBody).toEqual({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
    expect(read.request).toBe(request);
    expect(withParsedBody(read.parsedBody)).toEqual({ parsedBody: read.parsedBody });
  });

  it('reads nothing of a GET or DELETE', async () => {
    for (const method of ['GET', 'DELETE']) {
      const request = new Request(URL_OF_ENDPOINT, { method });
      const read = await readJsonBody(request, 1024);
      expect(read).toEqual({ request });
      expect(withParsedBody(read.parsedBody)).toBeUndefined();
    }
  });

  it('hands on a body that is not JSON unread, headers and all, so that the SDK answers it as such', async () => {
    const request = post('not json', { 'mcp-session-id': 'abc' });
    const read = await readJsonBody(request, 1024);
    expect(read.parsedBody).toBeUndefined();
    expect(read.request).not.toBe(request);
    expect(read.request.headers.get('mcp-session-id')).toBe('abc');
    expect(read.request.method).toBe('POST');
    expect(await read.request.text()).toBe('not json');
  });

  it('hands on a body over the bound unparsed, so that the SDK answers 413', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { padding: 'x'.repeat(200) } });
    const read = await readJsonBody(post(body), 100);
    expect(read.parsedBody).toBeUndefined();
    expect(await read.request.text()).toBe(body);
  });
});
