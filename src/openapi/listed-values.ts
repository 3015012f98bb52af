/**
 * The values a tool schema lists, kept short in what a host puts before a model: an `enum` of
 * thousands of values, or a `default`, `const` or example of kilobytes, costs tokens on every
 * request and carries the document's words unchecked. The listed schema gets them shortened, each
 * with a marker that says what was left out; the schema arguments are checked against, and so
 * what is sent to the school, keeps them whole. Pure: it returns the schema itself when nothing
 * is long, so a listing shares the catalogue's objects.
 * @see SECURITY.md API-16
 */
import type { JsonSchema } from './operation.js';

/** The longest string a listed `default`, `const` or example keeps, and the longest JSON of any other such value. */
export const MAX_LISTED_VALUE_CHARS = 200;
/** An `enum` with more values than this, or longer as JSON than `MAX_LISTED_ENUM_CHARS`, is listed as a sample. */
export const MAX_LISTED_ENUM_VALUES = 50;
const MAX_LISTED_ENUM_CHARS = 2_000;
/** How many values of a long `enum` the description names, and how much of each. */
const NAMED_ENUM_VALUES = 10;
const NAMED_ENUM_VALUE_CHARS = 60;
/** How many of an `examples` list are kept. */
const MAX_LISTED_EXAMPLES = 5;

const VALUE_KEYWORDS = new Set(['default', 'const', 'example']);
/** Keywords whose value is a schema, a list of schemas, or a map of them. */
const ONE_SCHEMA = new Set([
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** `schema` as listed: long values shortened with a marker, at any depth; the same object when none is long. */
export function withListedValues(schema: JsonSchema): JsonSchema {
  let changed: JsonSchema | undefined;
  const set = (keyword: string, value: unknown) => {
    changed ??= { ...schema };
    changed[keyword] = value;
  };
  for (const [keyword, value] of Object.entries(schema)) {
    if (VALUE_KEYWORDS.has(keyword)) {
      const shown = listedValue(value);
      if (shown !== value) set(keyword, shown);
    } else if (keyword === 'examples' && Array.isArray(value)) {
      const shown = listedExamples(value);
      if (shown !== value) set(keyword, shown);
    } else if (keyword === 'enum' && Array.isArray(value) && enumIsLong(value)) {
      set('enum', undefined);
    } else if (ONE_SCHEMA.has(keyword) && isSchema(value)) {
      const shown = withListedValues(value);
      if (shown !== value) set(keyword, shown);
    } else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) {
      const shown = value.map((item: unknown) => (isSchema(item) ? withListedValues(item) : item));
      if (shown.some((item, index) => item !== value[index])) set(keyword, shown);
    } else if (SCHEMA_MAPS.has(keyword) && isSchema(value)) {
      const shown = listedSchemaMap(value);
      if (shown !== value) set(keyword, shown);
    }
  }
  if (changed === undefined) return schema;
  const result: JsonSchema = changed;
  if (result['enum'] === undefined && Array.isArray(schema['enum'])) {
    delete result['enum'];
    const note = enumNote(schema['enum']);
    result['description'] =
      typeof schema['description'] === 'string' && schema['description'] !== ''
        ? `${schema['description']} ${note}`
        : note;
  }
  return result;
}

/**
 * A long enum is not listed as an `enum`: a host that checks arguments against the listed schema
 * would then refuse the values left out. It is named in the description instead, with a count of the rest.
 */
function enumIsLong(values: readonly unknown[]): boolean {
  if (values.length > MAX_LISTED_ENUM_VALUES) return true;
  let chars = 0;
  for (const value of values) {
    chars += (JSON.stringify(value) ?? '').length + 1;
    if (chars > MAX_LISTED_ENUM_CHARS) return true;
  }
  return false;
}

function enumNote(values: readonly unknown[]): string {
  const named = values
    .slice(0, NAMED_ENUM_VALUES)
    .map((value) => shortJson(listedValue(value, NAMED_ENUM_VALUE_CHARS)));
  return `One of ${count(values.length)} values (${named.join(', ')} and ${count(values.length - named.length)} more, not listed).`;
}

function listedExamples(values: readonly unknown[]): readonly unknown[] {
  const kept = values.slice(0, MAX_LISTED_EXAMPLES).map((value) => listedValue(value));
  return kept.length === values.length && kept.every((value, index) => value === values[index]) ? values : kept;
}

function listedSchemaMap(map: JsonSchema): JsonSchema {
  let changed: JsonSchema | undefined;
  for (const [name, inner] of Object.entries(map)) {
    if (!isSchema(inner)) continue;
    const shown = withListedValues(inner);
    if (shown === inner) continue;
    changed ??= { ...map };
    changed[name] = shown;
  }
  return changed ?? map;
}

/** A value as listed: a long string cut with a marker, any other long value replaced by a note of its size. */
function listedValue(value: unknown, maxChars = MAX_LISTED_VALUE_CHARS): unknown {
  if (typeof value === 'string') {
    if (value.length <= maxChars) return value;
    const head = [...value.slice(0, maxChars)].slice(0, -1).join('');
    return `${head}… [${count(value.length - head.length)} more characters not listed]`;
  }
  if (typeof value !== 'object' || value === null) return value;
  const chars = (JSON.stringify(value) ?? '').length;
  return chars <= maxChars
    ? value
    : `[${Array.isArray(value) ? 'a list' : 'an object'} of ${count(chars)} characters as JSON, not listed]`;
}

function shortJson(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
