/**
 * What a host receives for `tools/list`, asked of a real server over an in-process transport,
 * so that the answer is the one the SDK writes on the wire and not a reconstruction of it.
 */
import {
  InMemoryTransport,
  LATEST_PROTOCOL_VERSION,
  type JSONRPCMessage,
  type Tool,
} from '@modelcontextprotocol/server';
import type { SchoolServerFactory } from './create-server.js';

/** Every page of `tools/list`, in order, as the host receives them. */
export async function listServerTools(factory: SchoolServerFactory): Promise<Tool[]> {
  const server = factory();
  const [hostSide, serverSide] = InMemoryTransport.createLinkedPair();
  const pending = new Map<number, (message: JSONRPCMessage) => void>();
  hostSide.onmessage = (message) => {
    if ('id' in message && typeof message.id === 'number') pending.get(message.id)?.(message);
  };
  let nextId = 1;
  const request = async (method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const id = nextId++;
    const answered = new Promise<JSONRPCMessage>((resolve) => pending.set(id, resolve));
    await hostSide.send({ jsonrpc: '2.0', id, method, params });
    const answer = await answered;
    if ('error' in answer) throw new Error(`${method} failed: ${answer.error.message}`);
    return (answer as { result: Record<string, unknown> }).result;
  };
  await server.connect(serverSide);
  try {
    await request('initialize', {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'school-mcp tools', version: '0' },
    });
    await hostSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await request('tools/list', cursor === undefined ? {} : { cursor });
      tools.push(...(page['tools'] as Tool[]));
      cursor = typeof page['nextCursor'] === 'string' ? page['nextCursor'] : undefined;
    } while (cursor !== undefined);
    return tools;
  } finally {
    await server.close();
  }
}
