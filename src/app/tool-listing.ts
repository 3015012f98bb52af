/**
 * `school-mcp tools`: what a host would be given for a school, without signing in. The tool list
 * comes from a real server built as `serve` builds it; nothing in it is ever called.
 */
import type { Config } from '../config/index.js';
import {
  CALL_TOOL,
  createSchoolServerFactory,
  DESCRIBE_TOOL,
  listServerTools,
  SEARCH_TOOL,
  SIGN_OUT_TOOL,
  WHO_AM_I_TOOL,
  type AccountService,
  type OperationCaller,
} from '../server/index.js';
import { openCatalogue } from './open-catalogue.js';

interface ListedTool {
  /** The definition exactly as `tools/list` carries it. */
  readonly definition: {
    readonly name: string;
    readonly annotations?: {
      readonly readOnlyHint?: boolean;
      readonly destructiveHint?: boolean;
      readonly idempotentHint?: boolean;
    };
  };
  /** The operation's toolset; absent for the server's own tools. */
  readonly toolset: string | undefined;
  /** Each alternative the operation accepts, as scope lists; empty for the server's own tools. */
  readonly scopeAlternatives: readonly (readonly string[])[];
}

export interface ToolListing {
  /** Where the document was read: a URL or a file path. */
  readonly location: string;
  readonly toolsets: readonly {
    readonly name: string;
    readonly operations: number;
    readonly listed: number;
    readonly selected: number;
  }[];
  /** Whether the discovery tools reach the selected operations that are not listed. */
  readonly discovery: boolean;
  readonly tools: readonly ListedTool[];
  /** Every warning of the load, the catalogue and the selection, once each. */
  readonly warnings: readonly string[];
}

export interface ToolListingOptions {
  readonly config: Config;
  readonly schoolUrl: URL | undefined;
  readonly configDir: string | undefined;
  readonly version: string;
}

/** The server's own tools, which no operation replaces. */
const SERVER_TOOLS = new Set([WHO_AM_I_TOOL, SIGN_OUT_TOOL, SEARCH_TOOL, DESCRIBE_TOOL, CALL_TOOL]);

const neverCalled: OperationCaller = () =>
  Promise.reject(new Error('school-mcp tools lists tools and never calls them'));
const signedOut: AccountService = {
  status: () => Promise.reject(new Error('school-mcp tools never signs in')),
  signOut: () => Promise.reject(new Error('school-mcp tools never signs in')),
};

export async function listSchoolTools({
  config,
  schoolUrl,
  configDir,
  version,
}: ToolListingOptions): Promise<ToolListing> {
  // Listing the tools converts their schemas; what that finds (a simplified schema) is reported too.
  const schemaWarnings: string[] = [];
  const { loaded, fullCatalogue, catalogue, plan, listWarnings } = await openCatalogue({
    config,
    schoolUrl,
    configDir,
    version,
    onSchemaWarning: (message) => schemaWarnings.push(message),
  });
  const schoolName = schoolUrl?.host ?? 'school';
  const factory = createSchoolServerFactory({
    catalogue,
    plan,
    call: neverCalled,
    account: signedOut,
    schoolName,
    version,
  });
  const definitions = await listServerTools(factory);
  const listedNames = new Set(definitions.map((tool) => tool.name));
  const directNames = new Set(plan.direct.map((operation) => operation.toolName));
  return {
    location: loaded.location,
    toolsets: [...fullCatalogue.toolsets].map(([name, operations]) => ({
      name,
      operations: operations.length,
      selected: catalogue.toolsets.get(name)?.length ?? 0,
      listed: operations.filter(
        (operation) => listedNames.has(operation.toolName) && directNames.has(operation.toolName),
      ).length,
    })),
    discovery: plan.discovery,
    tools: definitions.map((definition) => {
      const operation = SERVER_TOOLS.has(definition.name)
        ? undefined
        : plan.direct.find((candidate) => candidate.toolName === definition.name);
      return { definition, toolset: operation?.toolset, scopeAlternatives: operation?.scopeAlternatives ?? [] };
    }),
    warnings: [
      ...new Set([
        ...(fullCatalogue.upgradedFrom === undefined
          ? []
          : [`the document is ${fullCatalogue.upgradedFrom}; it was upgraded to OpenAPI 3 in memory`]),
        ...loaded.warnings,
        ...fullCatalogue.warnings,
        ...catalogue.warnings,
        ...listWarnings,
        ...schemaWarnings,
      ]),
    ],
  };
}
