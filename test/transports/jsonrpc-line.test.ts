/**
 * One stdio line, judged: parse errors, invalid requests, and batches by protocol revision. The
 * real process answering them is in test/e2e/stdio-hygiene.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { MAX_BATCH_LENGTH, readJsonRpcLine } from '../../src/transports/jsonrpc-line.js';

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('a stdio line', () => {
  it('STDIO-05 is a parse error with id null when it is not JSON, and skipped when blank', () => {
    expect(readJsonRpcLine('{"jsonrpc":', '2025-11-25')).toEqual({
      kind: 'refused',
      reply: { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } },
    });
    expect(readJsonRpcLine('   ', '2025-11-25')).toEqual({ kind: 'blank' });
  });

  it('STDIO-05 is an invalid request, with its id when it has a usable one, when it is JSON but no JSON-RPC message', () => {
    expect(readJsonRpcLine('{"id": 3, "method": "ping"}', undefined)).toMatchObject({
      kind: 'refused',
      reply: { id: 3, error: { code: -32600 } },
    });
    expect(readJsonRpcLine('{"jsonrpc": "2.0", "id": "a"}', undefined)).toMatchObject({
      kind: 'refused',
      reply: { id: 'a', error: { code: -32600 } },
    });
    expect(readJsonRpcLine('{"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"}', undefined)).toMatchObject({
      kind: 'refused',
      reply: { id: null },
    });
    expect(readJsonRpcLine('null', undefined)).toMatchObject({
      kind: 'refused',
      reply: { id: null, error: { code: -32600 } },
    });
  });

  it('passes a request, a notification and a client response on unchanged', () => {
    expect(readJsonRpcLine(JSON.stringify(ping(1)), undefined)).toEqual({ kind: 'message', message: ping(1) });
    expect(readJsonRpcLine('{"jsonrpc":"2.0","method":"notifications/initialized"}', undefined)).toMatchObject({
      kind: 'message',
    });
    expect(readJsonRpcLine('{"jsonrpc":"2.0","id":4,"result":{}}', '2025-11-25')).toMatchObject({ kind: 'message' });
    expect(readJsonRpcLine('{"jsonrpc":"2.0","id":5,"error":{"code":-1,"message":"no"}}', '2025-11-25')).toMatchObject({
      kind: 'message',
    });
  });

  it.each([undefined, '2024-11-05', '2025-06-18', '2025-11-25', '2026-07-28'])(
    'STDIO-05 refuses a batch as one invalid request on %s',
    (revision) => {
      expect(readJsonRpcLine(JSON.stringify([ping(1), ping(2)]), revision)).toMatchObject({
        kind: 'refused',
        reply: { id: null, error: { code: -32600 } },
      });
    },
  );

  it('STDIO-05 splits a batch on 2025-03-26, refusing its invalid elements and an initialize inside it', () => {
    const reading = readJsonRpcLine(
      JSON.stringify([
        ping(1),
        { id: 2, method: 'ping' },
        { jsonrpc: '2.0', id: 3, method: 'initialize', params: {} },
        { jsonrpc: '2.0', id: 4, result: {} },
      ]),
      '2025-03-26',
    );
    expect(reading).toMatchObject({
      kind: 'batch',
      messages: [ping(1), { id: 4, result: {} }],
      refusals: [
        { id: 2, error: { code: -32600 } },
        { id: 3, error: { code: -32600, message: expect.stringContaining('initialize') } },
      ],
    });
  });

  it('STDIO-05 refuses an empty batch and one over the limit on 2025-03-26', () => {
    expect(readJsonRpcLine('[]', '2025-03-26')).toMatchObject({
      kind: 'refused',
      reply: { id: null, error: { code: -32600 } },
    });
    const long = JSON.stringify(Array.from({ length: MAX_BATCH_LENGTH + 1 }, (_, index) => ping(index)));
    expect(readJsonRpcLine(long, '2025-03-26')).toMatchObject({
      kind: 'refused',
      reply: { id: null, error: { code: -32600 } },
    });
  });
});
