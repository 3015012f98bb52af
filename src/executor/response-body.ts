/**
 * Reading a response body with a cap that applies after decompression, so neither a huge body
 * nor a small gzip bomb can exhaust memory. Reading stops at the cap and the connection is
 * destroyed, which also stops the sender.
 * @see SECURITY.md NET-03, ERR-04
 */
import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { declaredOverCap, isJsonMediaType } from '../network/index.js';
import { SchoolMcpError } from '../errors.js';

export interface BodyLimits {
  /** Cap on a success body after decompression. */
  readonly maxResponseBytes: number;
  /** Error bodies are only ever shown as a short excerpt, so little of them is read. */
  readonly maxErrorBodyBytes: number;
}

export interface BodyReadPlan {
  readonly maxBytes: number;
  /** `refuse`: a body past the cap is an error (cut JSON is not data); `truncate`: keep the start. */
  readonly overflow: 'refuse' | 'truncate';
}

export interface ReadBody {
  readonly bytes: Buffer;
  readonly truncated: boolean;
}

/** Pure: how much of a body to read, and what a body past the cap means. */
export function planBodyRead(status: number, contentType: string | undefined, limits: BodyLimits): BodyReadPlan {
  if (status >= 400) return { maxBytes: limits.maxErrorBodyBytes, overflow: 'truncate' };
  return { maxBytes: limits.maxResponseBytes, overflow: isJsonMediaType(contentType) ? 'refuse' : 'truncate' };
}

/** Pure: a success body whose declared length is over the cap is refused before reading. */
export function declaredLengthTooLarge(status: number, contentLength: string | undefined, plan: BodyReadPlan): boolean {
  return status < 400 && declaredOverCap(contentLength, plan.maxBytes);
}

export function tooLargeError(maxBytes: number) {
  return new SchoolMcpError('API_RESPONSE_TOO_LARGE', `The response is larger than the ${maxBytes}-byte limit.`, {
    hint: "Ask for less: use the operation's filters, a smaller page size, or field selection.",
  });
}

export async function readResponseBody(
  body: Readable,
  contentEncoding: string | undefined,
  plan: BodyReadPlan,
): Promise<ReadBody> {
  const decoders = decodersFor(contentEncoding);
  if (decoders === undefined) {
    discardBody(body);
    throw new SchoolMcpError(
      'API_RESPONSE_UNREADABLE',
      `The response uses an unsupported content encoding (${JSON.stringify(contentEncoding)}).`,
      {
        hint: 'Report this to the school; the API should answer in gzip, deflate, br or plain.',
      },
    );
  }
  // `pipeline` destroys every stage when any one fails or is destroyed, so stopping at the cap
  // also stops the decompressor and the socket.
  const decoded = decoders.length === 0 ? body : (pipeline([body, ...decoders], () => {}) as unknown as Readable);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of decoded as AsyncIterable<Buffer>) {
      if (size + chunk.byteLength > plan.maxBytes) {
        if (plan.overflow === 'refuse') throw tooLargeError(plan.maxBytes);
        chunks.push(chunk.subarray(0, plan.maxBytes - size));
        return { bytes: Buffer.concat(chunks), truncated: true };
      }
      chunks.push(chunk);
      size += chunk.byteLength;
    }
  } catch (error) {
    if (isZlibError(error)) {
      throw new SchoolMcpError('API_RESPONSE_UNREADABLE', 'The response body could not be decompressed.', {
        cause: error,
      });
    }
    throw error;
  } finally {
    discardBody(decoded);
    discardBody(body);
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}

/**
 * Stops reading and closes the connection. A body destroyed before its end emits an abort error
 * that nobody waits for any more; it is expected, so it is swallowed.
 */
export function discardBody(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/** Decoders in the order to apply them: the reverse of the `Content-Encoding` list (RFC 9110 §8.4). */
function decodersFor(contentEncoding: string | undefined): NodeJS.ReadWriteStream[] | undefined {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse();
  const decoders: NodeJS.ReadWriteStream[] = [];
  for (const coding of codings) {
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(createGunzip());
    else if (coding === 'deflate') decoders.push(createInflate());
    else if (coding === 'br') decoders.push(createBrotliDecompress());
    else return undefined;
  }
  return decoders;
}

function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}
