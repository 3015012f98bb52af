/**
 * Types as strict validators (Ajv's `strictTypes`, some hosts) want them; documents often leave
 * them implicit, which JSON Schema allows and those validators refuse.
 * - `type` made explicit where the keywords imply it: `properties` without `type` is an object,
 *   `items` without `type` an array. Only a schema that says nothing of its type and is not
 *   combined (`anyOf`, `oneOf`, `allOf`, `not`, `enum`, `const`) gets one.
 * - Keywords of another type dropped where `type` names one type: `uniqueItems` on a boolean
 *   (Kubernetes has it), `minItems` on a string. A validator ignores them for such values anyway
 *   (JSON Schema 2020-12 Validation §6), so nothing that was accepted is refused.
 */
import { isRecord, setDataProperty } from './json-value.js';
import type { JsonSchema } from './operation.js';

const OBJECT_KEYWORDS = [
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'minProperties',
  'maxProperties',
];
const ARRAY_KEYWORDS = ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems'];
const STRING_KEYWORDS = ['minLength', 'maxLength', 'pattern'];
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];

const KEYWORDS_OF: Readonly<Record<string, readonly string[]>> = {
  object: OBJECT_KEYWORDS,
  array: ARRAY_KEYWORDS,
  string: STRING_KEYWORDS,
  number: NUMBER_KEYWORDS,
};
const UNTYPED_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'not', 'enum', 'const', '$ref'];

const SUBSCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs']);
const SUBSCHEMA_LISTS = new Set(['prefixItems', 'anyOf', 'oneOf', 'allOf']);
const SUBSCHEMAS = new Set(['items', 'additionalProperties', 'not', 'contains']);

/** Keywords that do not apply to a value of `type`; computed once per type name. */
const foreignKeywordsOf = new Map<string, ReadonlySet<string>>();

function foreignKeywords(type: string): ReadonlySet<string> {
  let foreign = foreignKeywordsOf.get(type);
  if (foreign === undefined) {
    const own = type === 'integer' ? 'number' : type;
    foreign = new Set(Object.entries(KEYWORDS_OF).flatMap(([kind, keywords]) => (kind === own ? [] : keywords)));
    foreignKeywordsOf.set(type, foreign);
  }
  return foreign;
}

const NO_KEYWORDS: ReadonlySet<string> = new Set();

/**
 * Pure: a copy of `schema` with implied types written out, at every depth. Built key by key
 * rather than copied and `delete`d from: deleting keys made this a fifth of the catalogue build
 * in a CPU profile of a 3,000-operation document. The keys keep their order.
 */
export function withImpliedTypes(schema: JsonSchema): JsonSchema {
  const implied =
    schema['type'] === undefined && !UNTYPED_KEYWORDS.some((keyword) => keyword in schema)
      ? impliedType(schema)
      : undefined;
  const type = implied ?? schema['type'];
  const foreign = typeof type === 'string' ? foreignKeywords(type) : NO_KEYWORDS;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (foreign.has(key)) continue;
    out[key] = key === 'type' && implied !== undefined ? implied : typedSubschemas(key, value);
  }
  if (implied !== undefined && !('type' in out)) out['type'] = implied;
  return out;
}

function typedSubschemas(key: string, value: unknown): unknown {
  if (SUBSCHEMA_MAPS.has(key)) {
    if (!isRecord(value)) return value;
    const typed: JsonSchema = {};
    for (const name of Object.keys(value)) {
      const sub = value[name];
      const converted = isRecord(sub) ? withImpliedTypes(sub) : sub;
      setDataProperty(typed, name, converted);
    }
    return typed;
  }
  if (SUBSCHEMA_LISTS.has(key))
    return Array.isArray(value) ? value.map((sub: unknown) => (isRecord(sub) ? withImpliedTypes(sub) : sub)) : value;
  if (SUBSCHEMAS.has(key)) return isRecord(value) ? withImpliedTypes(value) : value;
  return value;
}

function impliedType(schema: JsonSchema): string | undefined {
  const kinds = [
    OBJECT_KEYWORDS.some((keyword) => keyword in schema) ? 'object' : undefined,
    ARRAY_KEYWORDS.some((keyword) => keyword in schema) ? 'array' : undefined,
    STRING_KEYWORDS.some((keyword) => keyword in schema) ? 'string' : undefined,
  ].filter((kind) => kind !== undefined);
  return kinds.length === 1 ? kinds[0] : undefined;
}
