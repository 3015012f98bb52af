/**
 * A response body as text, refused past a byte cap. The cap counts bytes after decompression,
 * as `fetch` hands them over, so a small compressed body cannot inflate past it.
 * @see SECURITY.md NET-03, API-08
 */
import { openApiError } from './openapi-error.js';

export async function readCappedText(response: Response, maxBytes: number, source: string): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(source, maxBytes);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8');
  let received = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(source, maxBytes);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function tooLarge(source: string, maxBytes: number) {
  return openApiError(
    'OPENAPI_TOO_LARGE',
    `The OpenAPI document at ${source} is larger than ${maxBytes} bytes.`,
    'Serve a smaller document, or pass a trimmed copy with --openapi FILE.',
  );
}
