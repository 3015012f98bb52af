/**
 * The MCP server for one school, independent of transports: a factory that the stdio and HTTP
 * transports call once per connection (or per request), registering tools compiled once.
 */
import { McpServer } from '@modelcontextprotocol/server';
import type { ToolCatalog } from '../openapi/index.js';
import type { AccountService } from './account.js';
import { registerAccountTools, SIGN_OUT_TOOL, WHO_AM_I_TOOL } from './account-tools.js';
import { clientConnectionOf } from './client-connection.js';
import { CALL_READ_TOOL, CALL_TOOL, DESCRIBE_TOOL, registerDiscoveryTools, SEARCH_TOOL } from './discovery-tools.js';
import { serverInstructions } from './instructions.js';
import type { OperationCaller } from './operation-caller.js';
import { compileOperationTool, registerOperationTool, type CompiledOperationTool } from './operation-tools.js';
import { withShapedResults } from './shaped-results.js';
import type { ToolPlan } from './tool-plan.js';

export interface SchoolServerOptions {
  /** What the user selected (read-only, exclusions...): discovery reaches exactly these. */
  readonly catalog: ToolCatalog;
  readonly plan: ToolPlan;
  readonly call: OperationCaller;
  readonly account: AccountService;
  /** How the school is named in the instructions, e.g. its host. */
  readonly schoolName: string;
  readonly version: string;
}

export type SchoolServerFactory = () => McpServer;

const RESERVED_NAMES = new Set([WHO_AM_I_TOOL, SIGN_OUT_TOOL, SEARCH_TOOL, DESCRIBE_TOOL, CALL_READ_TOOL, CALL_TOOL]);

export function createSchoolServerFactory(options: SchoolServerOptions): SchoolServerFactory {
  // An operation named like one of the server's own tools stays reachable through discovery.
  const direct = options.plan.direct.filter((operation) => !RESERVED_NAMES.has(operation.toolName));
  const compiled = new Map<string, CompiledOperationTool>(direct.map((operation) => [operation.toolName, compileOperationTool(operation, options.plan.compactListing === true)]));
  const directTools = direct.map((operation) => compiled.get(operation.toolName)!);
  const instructions = serverInstructions(options.schoolName, options.plan, [...options.catalog.toolsets.keys()]);
  const call = withShapedResults(options.call);

  return () => {
    const server = new McpServer(
      { name: 'school-mcp', title: `School: ${options.schoolName}`, version: options.version },
      { instructions, capabilities: { tools: { listChanged: false } } },
    );
    const connection = clientConnectionOf(server);
    registerAccountTools(server, options.account);
    for (const tool of directTools) registerOperationTool(server, tool, call, connection);
    if (options.plan.discovery) registerDiscoveryTools(server, options.catalog, call, compiled, connection);
    return server;
  };
}
