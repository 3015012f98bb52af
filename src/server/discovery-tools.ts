/**
 * Tools that reach every operation of the catalogue without listing each one: search, describe,
 * and call, a read variant (read-only, so a host that confirms changes does not confirm it) and
 * one for changes (annotated destructive). For hosts that cap tool counts or context; the same
 * executor runs the call.
 */
import type { CallToolResult, McpServer, ServerContext } from '@modelcontextprotocol/server';
import {
  nearOperations,
  searchOperations,
  shownSchema,
  unknownWords,
  type Operation,
  type ToolCatalogue,
} from '../openapi/index.js';
import { invalidArgumentsText } from './argument-problems.js';
import { argumentSummary, listOrder } from './argument-summary.js';
import type { ClientConnection } from './client-connection.js';
import { lazyJsonSchema } from './lazy-json-schema.js';
import type { OperationCaller } from './operation-caller.js';
import { compileOperationTool, type CompiledOperationTool } from './operation-tools.js';

export const SEARCH_TOOL = 'search_operations';
export const DESCRIBE_TOOL = 'describe_operation';
export const CALL_READ_TOOL = 'call_read_operation';
export const CALL_TOOL = 'call_operation';

const searchInput = lazyJsonSchema({
  type: 'object',
  properties: {
    query: {
      type: 'string',
      description:
        'What you want to do, in your own words, e.g. "cancel a subscription" or "who signed up for the webinar". Empty with a toolset: that toolset\'s operations.',
      maxLength: 200,
    },
    toolset: { type: 'string', description: 'Only operations of this toolset (scope group), e.g. "events".' },
    limit: { type: 'integer', minimum: 1, maximum: 25, default: 10 },
  },
  required: ['query'],
  additionalProperties: false,
});

const describeInput = lazyJsonSchema({
  type: 'object',
  properties: { name: { type: 'string', description: 'An operation name from search_operations.' } },
  required: ['name'],
  additionalProperties: false,
});

const callInputFor = (tool: string) =>
  lazyJsonSchema(
    {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'An operation name from search_operations.' },
        arguments: {
          type: 'object',
          description: 'The arguments, as search_operations or describe_operation show them.',
          additionalProperties: true,
        },
      },
      required: ['name'],
      additionalProperties: false,
    },
    {
      misplacedTopLevel: (field) =>
        `"${field}" is not an argument of ${tool} itself: put it inside "arguments", as in {"name": "...", "arguments": {"${field}": ...}}`,
    },
  );

// Made once: a server instance is made per connection (or per HTTP request), a schema compiled once.
const callReadInput = callInputFor(CALL_READ_TOOL);
const callInput = callInputFor(CALL_TOOL);

export function registerDiscoveryTools(
  server: McpServer,
  catalogue: ToolCatalogue,
  call: OperationCaller,
  compiled: Map<string, CompiledOperationTool>,
  connection?: ClientConnection,
): void {
  const listed = (name: string) => compiled.has(name);
  // One result line: a tool listed simplified (API-11) takes the arguments of its simplified schema.
  const line = (operation: Operation) => {
    const callable = compiled.get(operation.toolName)?.operation ?? operation;
    const order = operation.method === 'get' ? listOrder(operation.description) : undefined;
    return {
      ...summary(callable),
      ...(listed(operation.toolName) ? { listed: true } : {}),
      ...(order === undefined ? {} : { order }),
      arguments: argumentSummary(callable.inputSchema),
    };
  };

  server.registerTool(
    SEARCH_TOOL,
    {
      title: 'Search school operations',
      description:
        'Finds operations of the school API from what you want to do, in your own words, with their arguments (* required). Searches every operation: one marked listed is also a tool of its own, to call directly. Call any other read with call_read_operation, a change with call_operation.',
      inputSchema: searchInput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args: unknown) => {
      const { query, toolset, limit } = args as { query: string; toolset?: string; limit?: number };
      const scope =
        toolset === undefined ? catalogue : { ...catalogue, operations: catalogue.toolsets.get(toolset) ?? [] };
      const found = searchOperations(scope, query, limit ?? 10).map(({ operation }) => operation);
      const results = found.map(line);
      const unknown = unknownWords(scope, query);
      const others = sameSubject(scope, found);
      const structured =
        results.length > 0
          ? {
              results,
              ...(others.length > 0 ? { sameToolset: others.map(line) } : {}),
              ...(unknown.length > 0 ? { notFound: notFound(unknown) } : {}),
            }
          : noResults(scope, query, toolset, unknown, line);
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    },
  );

  server.registerTool(
    DESCRIBE_TOOL,
    {
      title: 'Describe a school operation',
      description:
        'Shows what an operation does, the scope it needs, and the exact arguments call_operation takes for it.',
      inputSchema: describeInput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args: unknown) => {
      const name = (args as { name: string }).name;
      // A tool listed on its own may be listed simplified (API-11): describe what call_operation accepts.
      const operation = compiled.get(name)?.operation ?? catalogue.byName.get(name);
      if (!operation) return unknownOperation(name);
      const structured = {
        ...summary(operation),
        requiredScopes: [...operation.requiredScopes],
        description: operation.description,
        // Shown as tools/list shows it: a kilobyte default or a thousand-value enum costs tokens on
        // every later request of the conversation, and the call is checked against the whole schema.
        inputSchema: shownSchema(operation.inputSchema),
        ...(operation.outputSchema === undefined ? {} : { outputSchema: shownSchema(operation.outputSchema) }),
        annotations: operation.annotations,
      };
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    },
  );

  const runOperation = async (
    name: string,
    operationArgs: Record<string, unknown> | undefined,
    context: ServerContext,
    readsOnly: boolean,
  ): Promise<CallToolResult> => {
    const operation = catalogue.byName.get(name);
    if (!operation) return unknownOperation(name);
    if (readsOnly && operation.annotations.readOnlyHint !== true) {
      return errorResult(
        `${name} changes data, and ${CALL_READ_TOOL} runs only reads: run it with ${CALL_TOOL}, after confirming the change with the user.`,
      );
    }
    let tool = compiled.get(name) ?? calledOnlyOf(compiled).get(name);
    if (!tool) {
      tool = compileOperationTool(operation);
      calledOnlyOf(compiled).set(name, tool);
    }
    const verdict = await tool.inputSchema['~standard'].validate(operationArgs ?? {});
    if ('issues' in verdict && verdict.issues !== undefined) {
      return errorResult(
        `${invalidArgumentsText(
          name,
          verdict.issues.map((issue) => issue.message),
        )}. Call ${DESCRIBE_TOOL} for its input schema.`,
      );
    }
    // The compiled tool's operation: arguments shaped for a simplified listing are sent as such.
    return call(
      tool.operation,
      (verdict.value ?? {}) as Record<string, unknown>,
      context,
      connection,
    ) as Promise<CallToolResult>;
  };

  server.registerTool(
    CALL_READ_TOOL,
    {
      title: 'Read with a school operation',
      description:
        'Runs a read operation (readOnly in search_operations) with arguments as search_operations or describe_operation show them. Changes nothing. Signs in or asks for a missing permission when needed.',
      inputSchema: callReadInput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args: unknown, context: ServerContext) => {
      const { name, arguments: operationArgs } = args as { name: string; arguments?: Record<string, unknown> };
      return runOperation(name, operationArgs, context, true);
    },
  );

  // Only where the selection has something to change: --read-only lists the read variant alone.
  if (catalogue.operations.some((operation) => operation.annotations.readOnlyHint !== true)) {
    server.registerTool(
      CALL_TOOL,
      {
        title: 'Change with a school operation',
        description:
          'Runs an operation that creates, changes or deletes (found with search_operations), with arguments as search_operations or describe_operation show them. Signs in or asks for a missing permission when needed.',
        inputSchema: callInput,
        annotations: { destructiveHint: true, openWorldHint: true },
      },
      async (args: unknown, context: ServerContext) => {
        const { name, arguments: operationArgs } = args as { name: string; arguments?: Record<string, unknown> };
        return runOperation(name, operationArgs, context, false);
      },
    );
  }
}

function summary(operation: Operation) {
  return {
    name: operation.toolName,
    title: operation.title,
    toolset: operation.toolset,
    readOnly: operation.annotations.readOnlyHint === true,
  };
}

/**
 * An answer with no result still gives the next step: the operations about the query's subject
 * when none makes the change it asks for ("delete event" where events are cancelled by an
 * update), else the words no operation holds and the toolsets to search or list instead.
 */
function noResults(
  scope: ToolCatalogue,
  query: string,
  toolset: string | undefined,
  unknown: readonly string[],
  line: (operation: Operation) => object,
) {
  const where = toolset === undefined ? '' : ` in the toolset ${JSON.stringify(toolset)}`;
  const closest = nearOperations(scope, query);
  const toolsets = [...scope.toolsets.keys()];
  if (closest.length > 0) {
    return {
      results: [],
      nothingMatches: `No operation${where} does what ${JSON.stringify(query)} asks. The closest operations are below: one of them may do it another way (an update that changes a state, for instance).`,
      closest: closest.map(line),
    };
  }
  const words =
    unknown.length > 0
      ? `No operation${where} mentions ${unknown.map((word) => JSON.stringify(word)).join(' or ')}`
      : `Nothing${where} matches ${JSON.stringify(query)}`;
  return {
    results: [],
    nothingMatches: `${words}. Search with the words of a toolset below, or list one toolset's operations with {"query": "", "toolset": "${toolsets[0] ?? 'NAME'}"}.`,
    toolsets,
  };
}

/** The most operations of the first result's toolset an answer adds beside its results. */
const MAX_SAME_TOOLSET = 6;

/**
 * The other operations of the first result's toolset: a task seldom stops at one operation of a
 * thing ("add a student", then tag them), and with these beside the results the next step needs
 * no second search.
 */
function sameSubject(scope: ToolCatalogue, found: readonly Operation[]): Operation[] {
  const first = found[0];
  if (first === undefined) return [];
  const shown = new Set(found.map((operation) => operation.toolName));
  return (
    scope.toolsets.get(first.toolset) ?? scope.operations.filter((operation) => operation.toolset === first.toolset)
  )
    .filter((operation) => !shown.has(operation.toolName))
    .slice(0, MAX_SAME_TOOLSET);
}

function notFound(unknown: readonly string[]): string {
  return `No operation mentions ${unknown.map((word) => JSON.stringify(word)).join(' or ')}: the results match the other words.`;
}

/** Operations compiled for the call tools, kept apart from the listed ones so that `compiled` says what is listed. */
const calledOnly = new WeakMap<Map<string, CompiledOperationTool>, Map<string, CompiledOperationTool>>();

function calledOnlyOf(compiled: Map<string, CompiledOperationTool>): Map<string, CompiledOperationTool> {
  let found = calledOnly.get(compiled);
  if (found === undefined) {
    found = new Map();
    calledOnly.set(compiled, found);
  }
  return found;
}

function unknownOperation(name: string): CallToolResult {
  return errorResult(
    `There is no operation named ${JSON.stringify(name)}. Use ${SEARCH_TOOL} to find operation names.`,
  );
}

function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}
