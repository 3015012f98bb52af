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
import { isRecord } from './json-value.js';
import type { JsonSchema } from './operation.js';

const OBJECT_KEYWORDS = ['properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties'];
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

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs'];
const SUBSCHEMA_LISTS = ['prefixItems', 'anyOf', 'oneOf', 'allOf'];
const SUBSCHEMAS = ['items', 'additionalProperties', 'not', 'contains'];

/** Pure: a copy of `schema` with implied types written out, at every depth. */
export function withImpliedTypes(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (out['type'] === undefined && !UNTYPED_KEYWORDS.some((keyword) => keyword in out)) {
    const implied = impliedType(out);
    if (implied !== undefined) out['type'] = implied;
  }
  const type = out['type'];
  if (typeof type === 'string') {
    const own = type === 'integer' ? 'number' : type;
    for (const [kind, keywords] of Object.entries(KEYWORDS_OF)) {
      if (kind !== own) keywords.forEach((keyword) => delete out[keyword]);
    }
  }
  for (const key of SUBSCHEMA_MAPS) {
    const map = out[key];
    if (isRecord(map)) out[key] = Object.fromEntries(Object.entries(map).map(([name, value]) => [name, isRecord(value) ? withImpliedTypes(value) : value]));
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map((value: unknown) => (isRecord(value) ? withImpliedTypes(value) : value));
  }
  for (const key of SUBSCHEMAS) {
    const value = out[key];
    if (isRecord(value)) out[key] = withImpliedTypes(value);
  }
  return out;
}

function impliedType(schema: JsonSchema): string | undefined {
  const kinds = [
    OBJECT_KEYWORDS.some((keyword) => keyword in schema) ? 'object' : undefined,
    ARRAY_KEYWORDS.some((keyword) => keyword in schema) ? 'array' : undefined,
    STRING_KEYWORDS.some((keyword) => keyword in schema) ? 'string' : undefined,
  ].filter((kind) => kind !== undefined);
  return kinds.length === 1 ? kinds[0] : undefined;
}
