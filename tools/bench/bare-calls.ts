/**
 * The bare SDK server's read tool for the latency floor: the same request as the bench's direct
 * caller (undici over one keep-alive Agent, the bearer token, the body parsed as JSON), answered the
 * way school-mcp answers a read: the parsed body as `structuredContent` when the tool declares an
 * output schema (so the SDK validates it as it does for school-mcp) and the JSON text as one block.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { Agent, request } from 'undici';

export interface ReadAnswerer {
  answer(args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** The query string of a read: each defined argument once, in the order given. */
export function readQuery(args: Readonly<Record<string, unknown>>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args))
    if (value !== undefined && value !== null)
      query.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  return query.toString();
}

/** The tool result school-mcp gives for a JSON body: structured only where an output schema asks for it. */
export function readResult(body: unknown, withStructuredContent: boolean): CallToolResult {
  const text = JSON.stringify(body);
  return withStructuredContent && typeof body === 'object' && body !== null && !Array.isArray(body)
    ? { content: [{ type: 'text', text }], structuredContent: body as Record<string, unknown> }
    : { content: [{ type: 'text', text }] };
}

export function readAnswerer(
  schoolUrl: string,
  path: string,
  token: string,
  withStructuredContent: boolean,
): ReadAnswerer {
  const dispatcher = new Agent({ connections: 32 });
  return {
    async answer(args) {
      const query = readQuery(args);
      const response = await request(`${schoolUrl}${path}${query === '' ? '' : `?${query}`}`, {
        dispatcher,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });
      const body: unknown = await response.body.json();
      if (response.statusCode !== 200)
        return { isError: true, content: [{ type: 'text', text: `GET ${path} answered ${response.statusCode}` }] };
      return readResult(body, withStructuredContent);
    },
    close: () => dispatcher.close(),
  };
}
