/**
 * The capped read that the sign-in and the document loader share, over a real `Response`.
 */
import { describe, expect, it } from 'vitest';
import { declaredOverCap, readCappedBody } from '../../src/network/index.js';

function streamed(chunks: readonly Uint8Array[], headers: Record<string, string> = {}): Response {
  let next = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]!);
      else controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  const response = new Response(body, { headers });
  Object.defineProperty(response, 'wasCancelled', { get: () => cancelled });
  return response;
}

describe('body caps', () => {
  it('reads a body up to the cap whole', async () => {
    const body = await readCappedBody(streamed([new Uint8Array([1, 2]), new Uint8Array([3])]), 3);
    expect(body.kind === 'read' ? [...body.bytes] : body.kind).toEqual([1, 2, 3]);
  });

  it('NET-03 stops an endless body at the cap and cancels the rest', async () => {
    const response = streamed([new Uint8Array(4), new Uint8Array(4), new Uint8Array(4)]);
    expect(await readCappedBody(response, 6)).toEqual({ kind: 'too-large' });
    expect((response as unknown as { wasCancelled: boolean }).wasCancelled).toBe(true);
  });

  it('NET-03 refuses a declared length over the cap before reading', async () => {
    const response = streamed([new Uint8Array(1)], { 'content-length': '1000' });
    expect(await readCappedBody(response, 10)).toEqual({ kind: 'too-large' });
    expect((response as unknown as { wasCancelled: boolean }).wasCancelled).toBe(true);
  });

  it('reads a declared length only as digits', () => {
    expect(declaredOverCap('11', 10)).toBe(true);
    expect(declaredOverCap(' 10 ', 10)).toBe(false);
    for (const value of [null, undefined, '', '1e9', '-5', 'abc'])
      expect(declaredOverCap(value, 10), String(value)).toBe(false);
  });

  it('gives an empty body for a response without one', async () => {
    expect(await readCappedBody(new Response(null, { status: 204 }), 10)).toMatchObject({
      kind: 'read',
      bytes: new Uint8Array(0),
    });
  });
});
