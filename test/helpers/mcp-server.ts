/**
 * One entry for scenario suites that run once per transport:
 * `describe.each(MCP_TRANSPORTS)('... over %s', (transport) => { ... startMcpServer({ transport, args }) ... })`.
 */
import { startHttpServer, type HttpServerOptions } from './mcp-http.js';
import { startStdioServer, type StdioServer } from './mcp-stdio.js';

export type McpTransport = 'stdio' | 'http';

export const MCP_TRANSPORTS: readonly McpTransport[] = ['stdio', 'http'];

/** What a scenario sees, whichever transport carries it. */
export type McpTestServer = StdioServer;

export interface McpServerOptions extends HttpServerOptions {
  readonly transport: McpTransport;
}

export function startMcpServer({ transport, ...options }: McpServerOptions): Promise<McpTestServer> {
  return transport === 'http' ? startHttpServer(options) : startStdioServer(options);
}

export { linkIn } from './mcp-stdio.js';

/** The SDK client's own name (`getProtocolEra()`) for a protocol era: `legacy` for the sessionful 2025 revisions, `modern` for stateless 2026-07-28. */
export function sdkEraName(era: 'sessionful' | 'stateless'): 'legacy' | 'modern' {
  return era === 'sessionful' ? 'legacy' : 'modern';
}
