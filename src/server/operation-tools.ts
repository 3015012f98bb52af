/**
 * Operations as MCP tools. The JSON Schemas are compiled at most once per catalogue, on a tool's
 * first call (compiling costs far more than registering), and every server instance registers the
 * same objects.
 */
import {
  isInputRequiredResult,
  type McpServer,
  type ServerContext,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { shownSchema, type Operation } from '../openapi/index.js';
import type { ClientConnection } from './client-connection.js';
import { compactAnnotations, compactInputSchema } from './compact-listing.js';
import { lazyJsonSchema } from './lazy-json-schema.js';
import type { OperationCaller, OperationResult } from './operation-caller.js';

/**
 * Where a tool's toolset is listed, for hosts and people who group tools. The scopes a tool asks
 * for are in its description, which every host shows the model; they are not repeated here.
 */
const TOOLSET_META_KEY = 'school-mcp/toolset';

export interface CompiledOperationTool {
  readonly operation: Operation;
  readonly inputSchema: StandardSchemaWithJSON;
  /** Checks `structuredContent`, listed or not. */
  readonly outputSchema: StandardSchemaWithJSON | undefined;
  /** Listed compactly (`compact-listing.ts`): the output schema is then checked but not listed. */
  readonly compact: boolean;
}

export function compileOperationTool(operation: Operation, compact = false): CompiledOperationTool {
  return {
    operation,
    // Hosts are shown what describe_operation shows (`shownSchema`, API-16), after the compact form's
    // cut; arguments and answers are checked against the whole schemas.
    inputSchema: lazyJsonSchema(operation.inputSchema, {}, () =>
      shownSchema(compact ? compactInputSchema(operation.inputSchema) : operation.inputSchema),
    ),
    outputSchema:
      operation.outputSchema === undefined
        ? undefined
        : lazyJsonSchema(operation.outputSchema, {}, () => shownSchema(operation.outputSchema!)),
    compact,
  };
}

export function registerOperationTool(
  server: McpServer,
  tool: CompiledOperationTool,
  call: OperationCaller,
  connection?: ClientConnection,
): void {
  const { operation } = tool;
  server.registerTool(
    operation.toolName,
    {
      title: operation.title,
      description: operation.description,
      inputSchema: tool.inputSchema,
      // A host gains nothing from an output schema in its context: the server checks
      // structuredContent against it all the same (checkOutput), and describe_operation shows it.
      ...(tool.outputSchema === undefined || tool.compact ? {} : { outputSchema: tool.outputSchema }),
      annotations: tool.compact ? compactAnnotations(operation.annotations) : { ...operation.annotations },
      _meta: { [TOOLSET_META_KEY]: operation.toolset },
    },
    async (args: unknown, context: ServerContext) => {
      const result = await call(operation, (args ?? {}) as Record<string, unknown>, context, connection);
      return checkOutput(tool, result);
    },
  );
}

/**
 * A school whose answer does not match the output schema its own document declares would make
 * the SDK fail the whole call; the agent gets the data instead, flagged, so nothing is lost.
 */
export async function checkOutput(tool: CompiledOperationTool, result: OperationResult): Promise<OperationResult> {
  if (isInputRequiredResult(result) || tool.outputSchema === undefined || result.isError) return result;
  if (result.structuredContent !== undefined) {
    const verdict = await tool.outputSchema['~standard'].validate(result.structuredContent);
    if (!('issues' in verdict) || verdict.issues === undefined) return result;
  }
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text:
          `The school answered, but the answer does not match the output schema that its OpenAPI document declares for ${tool.operation.toolName}; ` +
          `the data is below as the school sent it. Treat field names and types with care.\n${text}`,
      },
    ],
  };
}
