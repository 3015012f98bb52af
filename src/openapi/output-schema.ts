/**
 * The tool's output schema: declared only when the operation's success response is a JSON object,
 * since MCP requires `outputSchema` to describe an object and `structuredContent` to match it.
 *
 * It carries the shape only (types, properties, items, formats), with the types that `properties`
 * and `items` imply written out for strict validators, and it is tolerant:
 * - every host receives every listed tool's output schema in `tools/list`, and the documentation
 *   keywords (descriptions, examples, bounds, patterns) made them most of that answer's tokens
 *   while telling the model nothing the result itself does not show;
 * - `structuredContent` must match the schema, so a closed object (`additionalProperties: false`),
 *   an `enum` or a `required` list would turn a school's additive change (a new field, a new
 *   state, a field it leaves out when empty) into a failed call. Only a wrong type still fails.
 */
import { isJsonMediaType } from '../network/index.js';
import { withImpliedTypes } from './implied-types.js';
import { entriesOf, isRecord, setDataProperty, type JsonRecord } from './json-value.js';
import type { JsonSchema } from './operation.js';
import { rememberConversion, replayConversion, soleReference } from './reference-conversions.js';
import { resolveSchema } from './resolve-schema.js';
import { OUTPUT_BUDGET, newSchemaMeter, type SchemaMeter } from './schema-budget.js';
import { convertSchema } from './schema-converter.js';
import { isObjectSchema } from './schema-kinds.js';

/** Undefined when there is none to declare, and when it passes its budget (`meter.overBudget` then says so). */
export function buildOutputSchema(
  responses: unknown,
  root: JsonRecord,
  meter: SchemaMeter = newSchemaMeter(),
): JsonSchema | undefined {
  const response = resolveSchema(successResponse(responses), root);
  if (!isRecord(response)) return undefined;
  const json = entriesOf(response['content']).find(([type]) => isJsonMediaType(type));
  if (!json || !isRecord(json[1]) || !('schema' in json[1])) return undefined;
  // Results that name the same component come out the same from a fresh meter: made once per document.
  const reference = meter.nodes === 0 && meter.bytes === 0 ? soleReference(json[1]['schema']) : undefined;
  const key = reference === undefined ? undefined : `output schema ${reference}`;
  const replayed = key === undefined ? undefined : replayConversion(root, key, meter, OUTPUT_BUDGET);
  if (replayed !== undefined) return replayed.schema;
  const schema = convertSchema(json[1]['schema'], root, 'output', OUTPUT_BUDGET, meter);
  if (meter.overBudget) return undefined;
  if (!isObjectSchema(schema) || 'anyOf' in schema || 'oneOf' in schema || 'allOf' in schema || 'not' in schema)
    return undefined;
  const output = { ...withImpliedTypes(structureOnly(schema)), type: 'object' };
  if (key !== undefined) rememberConversion(root, key, output, { nodes: meter.nodes, bytes: meter.bytes });
  return output;
}

const STRUCTURE_KEYWORDS = new Set([
  'type',
  'format',
  'const',
  'additionalProperties',
  'properties',
  'items',
  'prefixItems',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
]);

/** Pure: a converted schema without its documentation and closing keywords, at every depth. */
function structureOnly(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!STRUCTURE_KEYWORDS.has(key)) continue;
    if (key === 'properties' && isRecord(value)) {
      // A loop rather than entries mapped into fromEntries: this runs for every property of
      // every result, and those arrays were a good part of the build's garbage in a profile.
      const properties: JsonSchema = {};
      for (const name of Object.keys(value)) {
        const property = value[name];
        const structure = isRecord(property) ? structureOnly(property) : property;
        setDataProperty(properties, name, structure);
      }
      out[key] = properties;
    } else if (key === 'additionalProperties' && !isRecord(value)) {
      continue;
    } else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && isRecord(value)) {
      out[key] = structureOnly(value);
    } else if (
      (key === 'prefixItems' || key === 'anyOf' || key === 'oneOf' || key === 'allOf') &&
      Array.isArray(value)
    ) {
      out[key] = value.map((variant: unknown) => (isRecord(variant) ? structureOnly(variant) : variant));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** The lowest explicit 2xx status with a body, else `2XX`; `default` usually describes errors. */
export function successResponse(responses: unknown): unknown {
  const entries = entriesOf(responses);
  const explicit = entries
    .filter(([status]) => /^2\d\d$/.test(status) && status !== '204')
    .sort(([a], [b]) => Number(a) - Number(b));
  return (explicit[0] ?? entries.find(([status]) => status.toUpperCase() === '2XX'))?.[1];
}
