/**
 * The stdio wire tells its owner once the host's first `tools/list` is answered: the moment a
 * start has given the host what it came for, after which the server may prepare for the first call.
 */
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStdioWire, type StdioWire } from '../../src/transports/stdio-wire.js';

let wire: StdioWire | undefined;

afterEach(async () => {
  await wire?.close();
  wire = undefined;
});

/** `drainMs`: how long running requests may answer once stdin ended. */
function openWire(drainMs = 100) {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
  const answeredWith: string[] = [];
  const onFirstListAnswered = vi.fn(() => answeredWith.push(written));
  const received: JSONRPCMessage[] = [];
  wire = createStdioWire({ input, output, drainMs, onFirstListAnswered });
  wire.onmessage = (message) => received.push(message);
  const line = (id: number, method: string) => `${JSON.stringify({ jsonrpc: '2.0', id, method, params: {} })}\n`;
  const request = (id: number, method: string) => input.write(line(id, method));
  /** The last request, then the end of stdin. */
  const lastRequest = (id: number, method: string) => input.end(line(id, method));
  const answer = (id: number) => wire!.send({ jsonrpc: '2.0', id, result: {} });
  return {
    wire,
    input,
    onFirstListAnswered,
    answeredWith,
    received,
    request,
    lastRequest,
    answer,
    lines: () => written.split('\n').filter(Boolean),
  };
}

const receivedCount = (received: readonly unknown[], count: number) =>
  vi.waitFor(() => expect(received).toHaveLength(count));

describe('the stdio wire and the first tools/list', () => {
  it('calls onFirstListAnswered once, after the answer to the first tools/list is written, and not for other requests', async () => {
    const { wire: opened, onFirstListAnswered, answeredWith, received, request, answer, lines } = openWire();
    await opened.start();
    request(1, 'initialize');
    request(2, 'tools/list');
    request(3, 'prompts/list');
    await receivedCount(received, 3);

    await answer(1);
    await answer(3);
    expect(onFirstListAnswered).not.toHaveBeenCalled();

    await answer(2);
    expect(onFirstListAnswered).toHaveBeenCalledTimes(1);
    // The host could read the answer by then.
    expect(answeredWith[0]).toContain('"id":2');

    request(4, 'tools/list');
    await receivedCount(received, 4);
    await answer(4);
    expect(onFirstListAnswered).toHaveBeenCalledTimes(1);
    expect(lines()).toHaveLength(4);
  });

  it('counts an error answer to the list, and not a request of the server that happens to carry the same id', async () => {
    const { wire: opened, onFirstListAnswered, received, request } = openWire();
    await opened.start();
    request(0, 'tools/list');
    await receivedCount(received, 1);
    await opened.send({ jsonrpc: '2.0', id: 0, method: 'ping' });
    expect(onFirstListAnswered).not.toHaveBeenCalled();
    await opened.send({ jsonrpc: '2.0', id: 0, error: { code: -32603, message: 'Internal error' } });
    expect(onFirstListAnswered).toHaveBeenCalledTimes(1);
  });

  it('does not call it for a list answered after stdin ended: the host is leaving', async () => {
    // A call still running keeps the wire open while the list's answer goes out.
    const { wire: opened, input, onFirstListAnswered, received, request, lastRequest } = openWire(1_000);
    await opened.start();
    request(2, 'tools/call');
    lastRequest(1, 'tools/list');
    await receivedCount(received, 2);
    await vi.waitFor(() => expect(input.readableEnded).toBe(true));
    await opened.send({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    expect(onFirstListAnswered).not.toHaveBeenCalled();
  });

  it('does not call it when the server answers without a tools/list ever asked', async () => {
    const { wire: opened, onFirstListAnswered, received, request, answer } = openWire();
    await opened.start();
    request(1, 'initialize');
    request(2, 'tools/call');
    await receivedCount(received, 2);
    await answer(1);
    await answer(2);
    expect(onFirstListAnswered).not.toHaveBeenCalled();
  });
});
