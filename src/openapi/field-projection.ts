/**
 * The `fields` argument every read tool takes so that an agent can ask for the part of an answer
 * it needs: the bridge keeps only those fields of the JSON answer (of each item of a list). A
 * school that declares its own `fields` parameter keeps it: the argument is then the school's and
 * is sent as it declares.
 */
import type { JsonSchema, Operation, OperationParameter } from './operation.js';

export const PROJECTION_ARGUMENT = 'fields';

/** One short phrase: it is in every read tool's listing. */
const PROJECTION_SCHEMA: JsonSchema = {
  type: 'array',
  items: { type: 'string' },
  description: 'Only these fields (per item), e.g. ["id","a.b"].',
};

/** The input schema with the bridge's `fields` argument, when the read answers JSON and has none. */
export function withProjectionArgument(
  inputSchema: JsonSchema,
  method: string,
  outputSchema: JsonSchema | undefined,
): JsonSchema {
  const properties = inputSchema['properties'];
  if (method !== 'get' || outputSchema === undefined || typeof properties !== 'object' || properties === null)
    return inputSchema;
  if (PROJECTION_ARGUMENT in properties) return inputSchema;
  return { ...inputSchema, properties: { ...properties, [PROJECTION_ARGUMENT]: PROJECTION_SCHEMA } };
}

/** Whether the bridge applies `fields` itself (the school declares no parameter of that name). */
export function bridgeProjects(operation: Pick<Operation, 'method' | 'parameters' | 'inputSchema'>): boolean {
  if (operation.method !== 'get') return false;
  const properties = operation.inputSchema['properties'];
  if (typeof properties !== 'object' || properties === null || !(PROJECTION_ARGUMENT in properties)) return false;
  return !operation.parameters.some((parameter: OperationParameter) => parameter.argument === PROJECTION_ARGUMENT);
}
