/**
 * What a host or an agent is shown of a tool schema, wherever it is shown (`tools/list`,
 * `describe_operation`): long values shortened (`listed-values.ts`, API-16) and one type per schema
 * (`single-types.ts`). Arguments and answers are still checked against the schema as built. Pure.
 */
import { withListedValues } from './listed-values.js';
import type { JsonSchema } from './operation.js';
import { withSingleTypes } from './single-types.js';

export function shownSchema(schema: JsonSchema): JsonSchema {
  return withSingleTypes(withListedValues(schema));
}
