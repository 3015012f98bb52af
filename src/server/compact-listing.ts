/**
 * The default list's compact form of a tool. Pure.
 *
 * - The input schema keeps what an agent needs to write arguments (types, enums, required,
 *   descriptions, defaults, examples) and leaves out the checks (`pattern`, lengths, bounds): the
 *   server still checks every call against the full schema before anything is sent, and names
 *   the field it refuses, so a check costs a retry at worst instead of tokens in every request.
 * - Annotations keep only hints that differ from MCP's defaults (`readOnlyHint` false,
 *   `destructiveHint` true, `idempotentHint` false, `openWorldHint` true), and no `title`: the
 *   tool's own `title` is listed beside them.
 */
import type { JsonSchema, ToolAnnotations } from '../openapi/index.js';

/** Keywords that only restrict a value the schema already types. */
const CHECK_KEYWORDS = new Set([
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
]);

/** Keywords whose value is a schema, a list of schemas, or a map of them. */
const ONE_SCHEMA = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);

export function compactInputSchema(schema: JsonSchema): JsonSchema {
  const compact: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (CHECK_KEYWORDS.has(keyword)) continue;
    if (ONE_SCHEMA.has(keyword) && isSchema(value)) compact[keyword] = compactInputSchema(value);
    else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value))
      compact[keyword] = value.map((item) => (isSchema(item) ? compactInputSchema(item) : item));
    else if (SCHEMA_MAPS.has(keyword) && isSchema(value))
      compact[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, inner]) => [name, isSchema(inner) ? compactInputSchema(inner) : inner]),
      );
    else compact[keyword] = value;
  }
  return compact;
}

export function compactAnnotations(annotations: ToolAnnotations): ToolAnnotations {
  const closedWorld = annotations.openWorldHint === false ? { openWorldHint: false } : {};
  if (annotations.readOnlyHint === true) return { readOnlyHint: true, ...closedWorld };
  return {
    ...(annotations.destructiveHint === false ? { destructiveHint: false } : {}),
    ...(annotations.idempotentHint === true ? { idempotentHint: true } : {}),
    ...closedWorld,
  };
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
