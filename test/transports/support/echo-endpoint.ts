/**
 * The HTTP transport around a small server whose tools make isolation, progress and elicitation
 * visible: `echo` returns its argument, `count_up` reports progress before answering, and
 * `confirm` asks the user (URL-mode elicitation) before answering. Counters show whether a
 * request reached any MCP code at all.
 */
import { fromJsonSchema, inputRequired, inputResponse, McpServer } from '@modelcontextprotocol/server';
import type { HttpConfig } from '../../../src/config/index.js';
import { createLogger } from '../../../src/log.js';
import { serveOverHttp, type HttpSocketLimits } from '../../../src/transports/index.js';
import type { HttpHandle } from '../../../src/transports/http.js';

export interface EchoEndpoint {
  readonly handle: HttpHandle;
  readonly port: number;
  readonly secret: string;
  /** Servers made by the factory, tool handlers entered. */
  readonly counters: { servers: number; toolCalls: number };
  readonly logs: string[];
  readonly announced: string[];
}

export const CONSENT_URL = 'https://school.example/oauth/authorize?consent=1';

export async function startEchoEndpoint(
  overrides: Partial<HttpConfig> = {},
  limits: Partial<HttpSocketLimits> = {},
): Promise<EchoEndpoint> {
  const counters = { servers: 0, toolCalls: 0 };
  const logs: string[] = [];
  const announced: string[] = [];
  const factory = () => {
    counters.servers += 1;
    const server = new McpServer({ name: 'echo', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.registerTool(
      'echo',
      {
        inputSchema: fromJsonSchema({ type: 'object', properties: { value: { type: 'string' } }, required: ['value'] }),
      },
      async (args) => {
        counters.toolCalls += 1;
        const { value } = args as { value: string };
        // A little jitter so that concurrent answers leave in a different order than they came.
        await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 20)));
        return { content: [{ type: 'text', text: value }], structuredContent: { value } };
      },
    );
    server.registerTool(
      'count_up',
      { inputSchema: fromJsonSchema({ type: 'object', properties: {} }) },
      async (_args, ctx) => {
        counters.toolCalls += 1;
        const progressToken = ctx.mcpReq._meta?.progressToken;
        for (let step = 1; step <= 3; step += 1) {
          if (progressToken !== undefined)
            await ctx.mcpReq.notify({
              method: 'notifications/progress',
              params: { progressToken, progress: step, total: 3 },
            });
        }
        return { content: [{ type: 'text', text: 'counted' }] };
      },
    );
    server.registerTool(
      'confirm',
      { inputSchema: fromJsonSchema({ type: 'object', properties: {} }) },
      async (_args, ctx) => {
        counters.toolCalls += 1;
        const answer = inputResponse(ctx.mcpReq.inputResponses, 'signin');
        if (answer.kind === 'elicit') return { content: [{ type: 'text', text: `user said ${answer.action}` }] };
        return inputRequired({
          inputRequests: { signin: inputRequired.elicitUrl({ message: 'Approve access', url: CONSENT_URL }) },
        });
      },
    );
    return server;
  };
  const config: HttpConfig = {
    host: '127.0.0.1',
    port: 0,
    secret: undefined,
    allowRemote: false,
    allowedOrigins: [],
    allowedHosts: [],
    ...overrides,
  };
  const logger = createLogger({ level: 'debug', write: (line) => logs.push(line) });
  const handle = await serveOverHttp(factory, config, logger, { announce: (line) => announced.push(line), limits });
  const port = Number(new URL(handle.url).port);
  const secret = config.secret ?? /launch: (\S+)/.exec(announced.join('\n'))![1]!;
  return { handle, port, secret, counters, logs, announced };
}
