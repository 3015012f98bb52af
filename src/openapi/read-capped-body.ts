/**
 * A response body as text, refused past a byte cap: the network part's capped read, worded as
 * the document loader's error.
 * @see SECURITY.md NET-03, API-08
 */
import { readCappedBody, type DocumentResponse } from '../network/index.js';
import { SchoolMcpError } from '../errors.js';

export async function readCappedText(
  response: Pick<DocumentResponse, 'headers' | 'body'>,
  maxBytes: number,
  source: string,
): Promise<string> {
  const body = await readCappedBody(response, maxBytes);
  if (body.kind === 'too-large') throw tooLarge(source, maxBytes);
  return new TextDecoder('utf-8').decode(body.bytes);
}

function tooLarge(source: string, maxBytes: number) {
  return new SchoolMcpError(
    'OPENAPI_TOO_LARGE',
    `The OpenAPI document at ${source} is larger than ${maxBytes} bytes.`,
    { hint: 'Serve a smaller document, or pass a trimmed copy with --openapi FILE.' },
  );
}
