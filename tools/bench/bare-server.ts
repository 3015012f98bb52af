/**
 * The floor for cold start: a bare SDK server that lists the same tool definitions as school-mcp
 * (read from a JSON file the bench wrote from school-mcp's own `tools/list`), with no sign-in, no
 * document and no catalogue. `node bare-server.js TOOLS.json`
 */
import { McpServer, fromJsonSchema, type JsonSchemaType } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { readFileSync } from 'node:fs';

interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchemaType;
  outputSchema?: JsonSchemaType;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

const file = process.argv[2];
if (file === undefined) {
  process.stderr.write('usage: bare-server TOOLS.json\n');
  process.exit(2);
}
const definitions = JSON.parse(readFileSync(file, 'utf8')) as ToolDefinition[];

serveStdio(() => {
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
      async () => ({ content: [{ type: 'text', text: '{}' }] }),
    );
  }
  return server;
});
