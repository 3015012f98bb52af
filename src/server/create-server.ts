/**
 * The MCP server for one school, independent of transports: a factory that the stdio and HTTP
 * transports call once per connection (or per request), registering tools compiled once.
 */
import { McpServer, type ServerOptions } from '@modelcontextprotocol/server';
import type { ToolCatalogue } from '../openapi/index.js';
import type { AccountService } from './account.js';
import { registerAccountTools, SIGN_OUT_TOOL, WHO_AM_I_TOOL } from './account-tools.js';
import { clientConnectionOf } from './client-connection.js';
import { CALL_READ_TOOL, CALL_TOOL, DESCRIBE_TOOL, registerDiscoveryTools, SEARCH_TOOL } from './discovery-tools.js';
import { serverInstructions } from './instructions.js';
import type { LogRelay } from './log-relay.js';
import type { OperationCaller } from './operation-caller.js';
import { compileOperationTool, registerOperationTool, type CompiledOperationTool } from './operation-tools.js';
import { withShapedResults } from './shaped-results.js';
import type { ToolPlan } from './tool-plan.js';

export interface SchoolServerOptions {
  /** What the user selected (read-only, exclusions...): discovery reaches exactly these. */
  readonly catalogue: ToolCatalogue;
  readonly plan: ToolPlan;
  readonly call: OperationCaller;
  readonly account: AccountService;
  /** How the school is named in the instructions, e.g. its host. */
  readonly schoolName: string;
  readonly version: string;
  /** Where the server's warnings go out as `notifications/message`; none are sent without it. */
  readonly logs?: LogRelay;
}

export type SchoolServerFactory = () => McpServer;

/** The school's tools, compiled once, for the servers made from them. */
export interface CompiledSchool {
  readonly instructions: string;
  /** Registers the account (unless the server has them already), operation and discovery tools. */
  register(server: McpServer, accountTools?: boolean): void;
}

const RESERVED_NAMES = new Set([WHO_AM_I_TOOL, SIGN_OUT_TOOL, SEARCH_TOOL, DESCRIBE_TOOL, CALL_READ_TOOL, CALL_TOOL]);

/**
 * What every school-mcp server declares: tools whose list can change (a school that comes back
 * after an outage), and logging (`logging/setLevel`, then the server's warnings as messages).
 * The list-changed notifications of tools registered together go out as one.
 */
export function schoolServerSettings(instructions: string): ServerOptions {
  return {
    instructions,
    capabilities: { tools: { listChanged: true }, logging: {} },
    debouncedNotificationMethods: ['notifications/tools/list_changed'],
  };
}

function newSchoolMcpServer(
  title: string,
  version: string,
  instructions: string,
  logs: LogRelay | undefined,
): McpServer {
  const server = new McpServer({ name: 'school-mcp', title, version }, schoolServerSettings(instructions));
  logs?.attach(server);
  return server;
}

export function compileSchool(options: SchoolServerOptions): CompiledSchool {
  // An operation named like one of the server's own tools stays reachable through discovery.
  const direct = options.plan.direct.filter((operation) => !RESERVED_NAMES.has(operation.toolName));
  const compiled = new Map<string, CompiledOperationTool>(
    direct.map((operation) => [
      operation.toolName,
      compileOperationTool(operation, options.plan.compactListing === true),
    ]),
  );
  const directTools = direct.map((operation) => compiled.get(operation.toolName)!);
  const call = withShapedResults(options.call);
  return {
    instructions: serverInstructions(
      options.schoolName,
      options.plan,
      [...options.catalogue.toolsets.keys()],
      options.catalogue.operations.filter((operation) => !compiled.has(operation.toolName)),
    ),
    register(server, accountTools = true) {
      const connection = clientConnectionOf(server);
      if (accountTools) registerAccountTools(server, options.account);
      for (const tool of directTools) registerOperationTool(server, tool, call, connection);
      if (options.plan.discovery) registerDiscoveryTools(server, options.catalogue, call, compiled, connection);
    },
  };
}

export function createSchoolServerFactory(options: SchoolServerOptions): SchoolServerFactory {
  return compiledSchoolFactory(compileSchool(options), options);
}

/** Servers with a compiled school's tools. */
export function compiledSchoolFactory(
  school: CompiledSchool,
  options: Pick<SchoolServerOptions, 'schoolName' | 'version' | 'logs'>,
): SchoolServerFactory {
  return () => {
    const server = newSchoolMcpServer(
      `School: ${options.schoolName}`,
      options.version,
      school.instructions,
      options.logs,
    );
    school.register(server);
    return server;
  };
}
