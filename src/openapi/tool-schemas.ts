/**
 * The part of an operation that costs: its parameters, body, input and output schemas, converted
 * from the document. The catalogue builds it on first use only (a tool that is listed, described
 * or called), and each schema has a byte budget: an input schema over it is replaced by the
 * simplified one, an output schema over it is left out, each with a warning (API-11).
 * @see SECURITY.md API-11
 */
import { withProjectionArgument } from './field-projection.js';
import { argumentClaimer, buildToolInput } from './input-schema.js';
import { jsonBytes } from './json-size.js';
import { recordOr, type JsonRecord } from './json-value.js';
import type { JsonSchema, OperationBody, OperationParameter } from './operation.js';
import { buildOutputSchema } from './output-schema.js';
import { declaredParameters } from './parameters.js';
import { templateNames } from './path-template.js';
import { declaredBody } from './declared-body.js';
import { MAX_TOOL_SCHEMA_BYTES, newSchemaMeter } from './schema-budget.js';
import { simplifiedToolInput } from './simplified-input.js';

export interface OperationSchemas {
  readonly parameters: readonly OperationParameter[];
  readonly body: OperationBody | undefined;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema | undefined;
  /** The JSON bytes of both schemas as a tool list holds them, measured once, where they are made. */
  readonly listedBytes: number;
}

/** Where an operation's schemas come from in the document. */
export interface SchemaSource {
  readonly toolName: string;
  readonly method: string;
  readonly pathTemplate: string;
  readonly pathItem: JsonRecord;
  readonly operation: JsonRecord;
}

export function buildOperationSchemas(
  source: SchemaSource,
  root: JsonRecord,
  warn: (message: string) => void,
): OperationSchemas {
  try {
    return convertWithinBudgets(source, root, warn);
  } catch (error) {
    // Built on first use, so a failure here would otherwise fail a `tools/list` or a call.
    warn(
      `${source.toolName}: its schemas could not be read (${error instanceof Error ? error.message.slice(0, 200) : String(error)}); it takes its path parameters only.`,
    );
    return pathParametersOnly(source.pathTemplate);
  }
}

function pathParametersOnly(pathTemplate: string): OperationSchemas {
  const claim = argumentClaimer();
  const parameters: OperationParameter[] = templateNames(pathTemplate).map((name) => ({
    name,
    argument: claim(name, 'path'),
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const input = simplifiedToolInput(parameters, undefined, MAX_TOOL_SCHEMA_BYTES);
  return {
    parameters: input.parameters,
    body: undefined,
    inputSchema: input.inputSchema,
    outputSchema: undefined,
    listedBytes: jsonBytes(input.inputSchema),
  };
}

function convertWithinBudgets(
  source: SchemaSource,
  root: JsonRecord,
  warn: (message: string) => void,
): OperationSchemas {
  const { toolName, method, pathTemplate, pathItem, operation } = source;
  const outputMeter = newSchemaMeter();
  let outputSchema = buildOutputSchema(recordOr(operation['responses']), root, outputMeter);
  let outputBytes = outputSchema === undefined || outputMeter.overBudget ? 0 : jsonBytes(outputSchema);
  const outputOver = outputMeter.overBudget || outputBytes > MAX_TOOL_SCHEMA_BYTES;
  if (outputOver) {
    outputSchema = undefined;
    outputBytes = 0;
  }

  // The budget is on the input schema as listed, the projection argument included.
  const inputMeter = newSchemaMeter();
  const parameters = declaredParameters(
    pathTemplate,
    pathItem['parameters'],
    operation['parameters'],
    root,
    inputMeter,
  );
  let input = buildToolInput(parameters, declaredBody(operation['requestBody'], root, inputMeter));
  let inputSchema = withProjectionArgument(input.inputSchema, method, outputSchema);
  let inputBytes = inputMeter.overBudget ? Number.POSITIVE_INFINITY : jsonBytes(inputSchema);
  if (inputBytes > MAX_TOOL_SCHEMA_BYTES) {
    input = simplifiedToolInput(input.parameters, input.body, MAX_TOOL_SCHEMA_BYTES);
    inputSchema = withProjectionArgument(input.inputSchema, method, outputSchema);
    inputBytes = jsonBytes(inputSchema);
    warn(inputOverWarning(toolName));
  }
  if (outputOver) warn(outputOverWarning(toolName));
  return {
    parameters: input.parameters,
    body: input.body,
    inputSchema,
    outputSchema,
    listedBytes: inputBytes + outputBytes,
  };
}

/**
 * Schemas read back from a cached catalogue, measured again as they are first read: the file is
 * school-mcp's own, but whoever can write it must not list a schema past the budgets, nor make
 * the tool list's budget (`catalogue-budget.ts`) count a size it does not have. Schemas that fit
 * and whose stored size is right come back as they are; otherwise the budget rule above applies.
 * @see SECURITY.md ST-16
 */
export function remeasuredSchemas(
  stored: OperationSchemas,
  toolName: string,
  method: string,
  warn: (message: string) => void,
): OperationSchemas {
  let outputSchema = stored.outputSchema;
  let outputBytes = jsonBytes(outputSchema);
  const inputBytes = jsonBytes(stored.inputSchema);
  if (inputBytes <= MAX_TOOL_SCHEMA_BYTES && outputBytes <= MAX_TOOL_SCHEMA_BYTES)
    return inputBytes + outputBytes === stored.listedBytes
      ? stored
      : { ...stored, listedBytes: inputBytes + outputBytes };
  if (outputBytes > MAX_TOOL_SCHEMA_BYTES) {
    outputSchema = undefined;
    outputBytes = 0;
    warn(outputOverWarning(toolName));
  }
  if (inputBytes <= MAX_TOOL_SCHEMA_BYTES) return { ...stored, outputSchema, listedBytes: inputBytes + outputBytes };
  const input = simplifiedToolInput(stored.parameters, stored.body, MAX_TOOL_SCHEMA_BYTES);
  const inputSchema = withProjectionArgument(input.inputSchema, method, outputSchema);
  warn(inputOverWarning(toolName));
  return {
    parameters: input.parameters,
    body: input.body,
    inputSchema,
    outputSchema,
    listedBytes: jsonBytes(inputSchema) + outputBytes,
  };
}

function inputOverWarning(toolName: string): string {
  return `${toolName}: its input schema is over the ${MAX_TOOL_SCHEMA_BYTES / 1024} KiB a tool schema may take; it is listed simplified (the body as one JSON value).`;
}

function outputOverWarning(toolName: string): string {
  return `${toolName}: its output schema is over the ${MAX_TOOL_SCHEMA_BYTES / 1024} KiB a tool schema may take; it is left out, and results come as text.`;
}
