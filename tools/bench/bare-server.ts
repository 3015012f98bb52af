/**
 * The floor the bench measures school-mcp against: a bare SDK server that lists the same tool
 * definitions as school-mcp (read from a JSON file the bench wrote from school-mcp's own
 * `tools/list`), with no sign-in, no document and no catalogue.
 *
 *   node bare-server.js TOOLS.json                      cold start: every tool answers `{}`
 *   node bare-server.js TOOLS.json --school URL --read-tool NAME --read-path PATH [--http PORT]
 *       latency: NAME makes the bench's direct request (token from BENCH_BARE_TOKEN, kept out of
 *       the process list); over stdio, or Streamable HTTP on 127.0.0.1:PORT/mcp with the SDK's own
 *       session transport behind `toNodeHandler`, as school-mcp serves 2025-11-25, without its guards.
 */
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  fromJsonSchema,
  type JsonSchemaType,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { readAnswerer, type ReadAnswerer } from './bare-calls.js';

interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchemaType;
  outputSchema?: JsonSchemaType;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    school: { type: 'string' },
    'read-tool': { type: 'string' },
    'read-path': { type: 'string' },
    http: { type: 'string' },
  },
});
const file = positionals[0];
if (file === undefined) {
  process.stderr.write(
    'usage: bare-server TOOLS.json [--school URL --read-tool NAME --read-path PATH [--http PORT]]\n',
  );
  process.exit(2);
}
const definitions = JSON.parse(readFileSync(file, 'utf8')) as ToolDefinition[];
const read = readTool();

function readTool(): { name: string; answerer: ReadAnswerer } | undefined {
  const { school, 'read-tool': name, 'read-path': path } = values;
  if (school === undefined) return undefined;
  const token = process.env['BENCH_BARE_TOKEN'];
  if (name === undefined || path === undefined || token === undefined) {
    process.stderr.write('bare-server: --school needs --read-tool, --read-path and BENCH_BARE_TOKEN\n');
    process.exit(2);
  }
  const tool = definitions.find((definition) => definition.name === name);
  if (tool === undefined) {
    process.stderr.write(`bare-server: no tool ${name} in ${file}\n`);
    process.exit(2);
  }
  return { name, answerer: readAnswerer(school, path, token, tool.outputSchema !== undefined) };
}

function bareServer(): McpServer {
  const server = new McpServer({ name: 'bare', version: '1.0.0' }, { capabilities: { tools: { listChanged: false } } });
  for (const tool of definitions) {
    server.registerTool(
      tool.name,
      {
        ...(tool.title === undefined ? {} : { title: tool.title }),
        ...(tool.description === undefined ? {} : { description: tool.description }),
        inputSchema: fromJsonSchema(tool.inputSchema),
        ...(tool.outputSchema === undefined ? {} : { outputSchema: fromJsonSchema(tool.outputSchema) }),
        ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
        ...(tool._meta === undefined ? {} : { _meta: tool._meta }),
      },
      async (args: unknown) =>
        read !== undefined && tool.name === read.name
          ? read.answerer.answer(args as Record<string, unknown>)
          : { content: [{ type: 'text' as const, text: '{}' }] },
    );
  }
  return server;
}

if (values.http === undefined) {
  serveStdio(bareServer);
} else {
  const sessions = bareSessions();
  const handler = toNodeHandler({ fetch: (request: Request) => sessions.handle(request) });
  const http = createServer((req, res) => void handler(req, res));
  http.listen(Number(values.http), '127.0.0.1');
  process.on('SIGTERM', () => {
    http.close();
    void Promise.allSettled([sessions.close(), read?.answerer.close()]).then(() => process.exit(0));
  });
}

/**
 * The bench client speaks 2025-11-25, which school-mcp serves with a server per session (its
 * `kept-sessions.ts`); the floor does the same with the SDK's own session transport, so both
 * pay one server per session and the transport's work per request, and nothing else differs.
 */
function bareSessions() {
  const open = new Map<string, WebStandardStreamableHTTPServerTransport>();
  return {
    async handle(request: Request): Promise<Response> {
      const id = request.headers.get('mcp-session-id');
      const existing = id === null ? undefined : open.get(id);
      if (existing !== undefined) return existing.handleRequest(request);
      if (id !== null) return new Response('unknown session', { status: 404 });
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (created) => void open.set(created, transport),
        onsessionclosed: (closed) => void open.delete(closed),
      });
      await bareServer().connect(transport);
      return transport.handleRequest(request);
    },
    async close() {
      await Promise.allSettled([...open.values()].map((transport) => transport.close()));
    },
  };
}
