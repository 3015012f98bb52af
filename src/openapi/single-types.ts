/**
 * Schemas as single-type dialects take them. JSON Schema lets `type` be a list (`["string",
 * "null"]`, what OpenAPI 3.1 documents and 3.0's `nullable` give), but several model APIs accept
 * one type per schema, and MCP Inspector's strict mode warns on the list. A list becomes `anyOf`
 * with one schema per type, each carrying the keywords that apply to that type (`maxLength` with
 * the string, `items` with the array); the other keywords (description, `enum`, `default`...)
 * stay where they were. The same values are accepted: an instance matches a type list when it
 * matches one of its types (JSON Schema 2020-12 Validation §6.1.1), and a type's keywords ignore
 * values of other types (§6).
 *
 * Only what hosts are shown takes this form; the catalogue keeps the lists, which the server's
 * own checks and summaries read. Pure: a schema without lists anywhere comes back as itself.
 */
import { isRecord, setDataProperty } from './json-value.js';
import type { JsonSchema } from './operation.js';

const STRING_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'format', 'contentMediaType', 'contentEncoding'];
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'format'];

const KEYWORDS_OF: Readonly<Record<string, readonly string[]>> = {
  string: STRING_KEYWORDS,
  number: NUMBER_KEYWORDS,
  integer: NUMBER_KEYWORDS,
  array: ['items', 'prefixItems', 'contains', 'minItems', 'maxItems', 'uniqueItems'],
  object: ['properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties'],
};

const SUBSCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs']);
const SUBSCHEMA_LISTS = new Set(['prefixItems', 'anyOf', 'oneOf', 'allOf']);
const SUBSCHEMAS = new Set(['items', 'additionalProperties', 'not', 'contains']);

/** Pure: `schema` with every `type` list, at any depth, written as `anyOf` of single types. */
export function withSingleTypes(schema: JsonSchema): JsonSchema {
  let out: JsonSchema | undefined;
  for (const [key, value] of Object.entries(schema)) {
    const converted = singleTypedSubschemas(key, value);
    if (converted === value) continue;
    out ??= { ...schema };
    setDataProperty(out, key, converted);
  }
  const typed = out ?? schema;
  return Array.isArray(typed['type']) ? splitTypeList(typed, typed['type']) : typed;
}

function splitTypeList(schema: JsonSchema, list: readonly unknown[]): JsonSchema {
  const types = [...new Set(list.filter((type): type is string => typeof type === 'string'))];
  const { type: _list, ...rest } = schema;
  if (types.length === 0) return rest;
  if (types.length === 1) return { ...rest, type: types[0]! };
  const moved = new Set(types.flatMap((type) => KEYWORDS_OF[type] ?? []));
  const shared: JsonSchema = {};
  for (const [key, value] of Object.entries(rest)) if (!moved.has(key)) setDataProperty(shared, key, value);
  const variants = types.map((type) => {
    const variant: JsonSchema = { type };
    for (const key of KEYWORDS_OF[type] ?? []) if (key in rest) variant[key] = rest[key];
    return variant;
  });
  if (!Array.isArray(shared['anyOf'])) return { ...shared, anyOf: variants };
  // An `anyOf` of its own stays; both must hold, so the types join it under `allOf`.
  const allOf = Array.isArray(shared['allOf']) ? shared['allOf'] : [];
  return { ...shared, allOf: [...allOf, { anyOf: variants }] };
}

function singleTypedSubschemas(key: string, value: unknown): unknown {
  if (SUBSCHEMA_MAPS.has(key) && isRecord(value)) {
    let out: Record<string, unknown> | undefined;
    for (const [name, sub] of Object.entries(value)) {
      const converted = isRecord(sub) ? withSingleTypes(sub) : sub;
      if (converted === sub) continue;
      out ??= { ...value };
      setDataProperty(out, name, converted);
    }
    return out ?? value;
  }
  if (SUBSCHEMA_LISTS.has(key) && Array.isArray(value)) {
    const converted = value.map((sub: unknown) => (isRecord(sub) ? withSingleTypes(sub) : sub));
    return converted.some((sub, index) => sub !== value[index]) ? converted : value;
  }
  if (SUBSCHEMAS.has(key) && isRecord(value)) return withSingleTypes(value);
  return value;
}
