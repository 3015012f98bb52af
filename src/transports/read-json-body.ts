/**
 * A POST's JSON body, read once. Given only the request, the SDK's routing predicate, its
 * per-request handler and the 2025-era session transport each read the body again, the first two
 * from a copy (a stream tee) so that the next one can still read it: three reads and two copies of
 * the same bytes on every call. Read here once, the parsed value goes to each as its `parsedBody`.
 */

export interface ReadBody {
  /** The request to hand on: the same one when its body was parsed, a readable copy when not. */
  readonly request: Request;
  /** The JSON value of a POST's body; absent for other methods, an empty body or one that is not JSON. */
  readonly parsedBody?: unknown;
}

/** Pure: the JSON value of a body's text, or `undefined` for an empty text or one that is not JSON. */
export function parseJsonBody(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A body the SDK cannot take parsed (over `maxBytes`, or not JSON) is handed on unread in a
 * copy, so that the SDK gives the answer it gives for such a body (413, or a parse error).
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<ReadBody> {
  if (request.method !== 'POST' || request.body === null) return { request };
  const text = await request.text();
  const parsedBody = Buffer.byteLength(text) > maxBytes ? undefined : parseJsonBody(text);
  if (parsedBody !== undefined) return { request, parsedBody };
  // Only a POST gets here (the first line returns for every other method), which the rule cannot see.
  // oxlint-disable-next-line unicorn/no-invalid-fetch-options
  return { request: new Request(request, { body: text }) };
}

/** The SDK's per-call options for a body read here. */
export function withParsedBody(parsedBody: unknown): { parsedBody: unknown } | undefined {
  return parsedBody === undefined ? undefined : { parsedBody };
}
