/**
 * The budget of a whole `tools/list` (API-11): the input and output schemas of the tools a server
 * lists, together. Tools are taken in listing order; once the budget is spent, the tools that
 * follow are listed simplified (the body as one JSON value, parameters kept while they fit a small
 * allowance, no output schema), so that a document of many large operations gives a long list,
 * never an unbounded one. Measuring a tool converts its schemas, so only listed tools pay it.
 * @see SECURITY.md API-11
 */
import { jsonBytes } from './json-size.js';
import type { Operation } from './operation.js';
import { convertQuietly, deriveOperation } from './operations.js';
import { simplifiedToolInput } from './simplified-input.js';

/**
 * All listed tools' schemas as JSON. The GitHub REST description's 623 operations need about
 * 1.1 MB; a list several times that is more than any host puts before a model.
 */
export const MAX_LISTED_SCHEMA_BYTES = 4 * 1024 * 1024;

/** What a tool listed past the catalogue's budget may take for its input schema. */
export const SIMPLIFIED_TOOL_BYTES = 4 * 1024;

export interface BudgetedTools {
  readonly operations: readonly Operation[];
  readonly warnings: readonly string[];
}

export function fitListedSchemas(operations: readonly Operation[], maxBytes = MAX_LISTED_SCHEMA_BYTES): BudgetedTools {
  const fitted: Operation[] = [];
  let spent = 0;
  let simplified = 0;
  for (const operation of operations) {
    const size = listedSchemaBytes(operation);
    if (spent + size <= maxBytes) {
      spent += size;
      fitted.push(operation);
      continue;
    }
    const small = simplifiedOperation(operation);
    spent += jsonBytes(small.inputSchema);
    simplified += 1;
    fitted.push(small);
  }
  const warnings =
    simplified === 0
      ? []
      : [
          `The listed tools' schemas pass the ${maxBytes / (1024 * 1024)} MiB a tool list may take; the last ${simplified} of ${operations.length} tools are listed simplified (the body as one JSON value, no output schema). List fewer with --toolsets or --tools.`,
        ];
  return { operations: fitted, warnings };
}

/**
 * What an operation's input and output schemas take in a tool list, as JSON: the figure its
 * conversion measured (a cached catalogue stores it, which spares measuring every listed tool at
 * start), or measured here for a derived operation.
 */
export function listedSchemaBytes(operation: Pick<Operation, 'inputSchema' | 'outputSchema'>): number {
  return (
    convertQuietly(operation as Operation)?.schemas.listedBytes ??
    jsonBytes(operation.inputSchema) + jsonBytes(operation.outputSchema)
  );
}

/** The operation as a tool listed past the budget: small input schema, no output schema. */
function simplifiedOperation(operation: Operation): Operation {
  const input = simplifiedToolInput(operation.parameters, operation.body, SIMPLIFIED_TOOL_BYTES);
  return deriveOperation(operation, {
    parameters: input.parameters,
    body: input.body,
    inputSchema: input.inputSchema,
    outputSchema: undefined,
  });
}
