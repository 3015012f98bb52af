/**
 * A schema's own keywords as the converter carries them (`schema-converter.ts`), apart from its
 * subschemas: the type (OpenAPI 3.0's `nullable` into a type list, Swagger's `file` as a string),
 * texts cut to length, literals (`enum`, `const`, `default`, examples) only while short (API-11),
 * patterns only when valid, counts and bounds (3.0's boolean exclusive bounds into 2020-12's
 * numbers). Pure.
 * @see SECURITY.md API-11
 */
import { jsonLengthWithin } from './json-size.js';
import type { JsonRecord } from './json-value.js';
import type { JsonSchema } from './operation.js';
import { plainText } from './plain-text.js';

/** An `enum` longer than this as JSON is left out (a list of time zones is about 12,000). */
const MAX_ENUM_LENGTH = 16_384;
/** An example, `default` or `const` longer than this as JSON is left out. */
const MAX_LITERAL_LENGTH = 2_048;
const MAX_PATTERN_LENGTH = 1_024;

const MAX_DESCRIPTION_LENGTH = 300;
const MAX_EXAMPLES = 3;

export const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const COUNT_KEYWORDS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'] as const;

/** Strings the schema carries as they are (formats, media types): a long one is no format. */
const MAX_KEYWORD_STRING_LENGTH = 200;

/** Type, texts, literals and pattern: what a schema says of itself, apart from its subschemas. */
export function ownKeywords(schema: JsonRecord): JsonSchema {
  const out: JsonSchema = {};
  const nullable = schema['nullable'] === true;
  const type = convertType(schema['type'], nullable);
  if (type !== undefined) out['type'] = type;
  for (const key of ['title', 'format', 'contentMediaType', 'contentEncoding'] as const) {
    const value = schema[key];
    if (typeof value !== 'string') continue;
    if (key === 'title') out[key] = plainText(value, 120);
    else if (value.length <= MAX_KEYWORD_STRING_LENGTH) out[key] = value;
  }
  if (typeof schema['description'] === 'string') {
    const description = plainText(schema['description'], MAX_DESCRIPTION_LENGTH);
    if (description !== '') out['description'] = description;
  }
  convertLiterals(schema, out, nullable);
  if (schema['deprecated'] === true) out['deprecated'] = true;
  if (schema['uniqueItems'] === true) out['uniqueItems'] = true;
  const pattern = schema['pattern'];
  if (typeof pattern === 'string' && isKeptPattern(pattern)) out['pattern'] = pattern;
  return out;
}

/** Counts, `multipleOf` and bounds: the checks on a value of the schema's type. */
export function convertValueChecks(schema: JsonRecord, out: JsonSchema): void {
  for (const key of COUNT_KEYWORDS) {
    const value = schema[key];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) out[key] = value;
  }
  if (typeof schema['multipleOf'] === 'number' && schema['multipleOf'] > 0) out['multipleOf'] = schema['multipleOf'];
  convertBounds(schema, out);
}

/** `enum`, `const`, `default` and examples: data from the document, kept only when short. */
function convertLiterals(schema: JsonRecord, out: JsonSchema, nullable: boolean): void {
  const fits = (value: unknown, cap: number) => jsonLengthWithin(value, cap) !== undefined;
  const values = schema['enum'];
  if (Array.isArray(values) && values.length > 0 && fits(values, MAX_ENUM_LENGTH)) {
    out['enum'] = nullable && !values.includes(null) ? [...values, null] : [...values];
  }
  if ('const' in schema && fits(schema['const'], MAX_LITERAL_LENGTH)) out['const'] = schema['const'];
  if ('default' in schema && fits(schema['default'], MAX_LITERAL_LENGTH)) out['default'] = schema['default'];
  const examples = Array.isArray(schema['examples'])
    ? schema['examples']
    : 'example' in schema
      ? [schema['example']]
      : [];
  const short = examples.slice(0, MAX_EXAMPLES).filter((example) => fits(example, MAX_LITERAL_LENGTH));
  if (short.length > 0) out['examples'] = short;
}

function convertType(type: unknown, nullable: boolean): string | string[] | undefined {
  const types = (Array.isArray(type) ? type : type === undefined ? [] : [type])
    .map((name) => (name === 'file' ? 'string' : name))
    .filter((name): name is string => typeof name === 'string' && JSON_TYPES.has(name));
  if (types.length === 0) return undefined;
  if (nullable && !types.includes('null')) types.push('null');
  const unique = [...new Set(types)];
  return unique.length === 1 ? unique[0] : unique;
}

function convertBounds(schema: JsonRecord, out: JsonSchema): void {
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    const limit = schema[bound];
    const flag = schema[exclusive];
    if (typeof flag === 'number') out[exclusive] = flag;
    if (typeof limit !== 'number') continue;
    if (flag === true) out[exclusive] = limit;
    else out[bound] = limit;
  }
}

/** A pattern kept in a converted schema: not too long, and one a validator compiles. */
export function isKeptPattern(pattern: string): boolean {
  return pattern.length <= MAX_PATTERN_LENGTH && isValidPattern(pattern);
}

/** JSON Schema patterns are ECMA-262 with the `u` flag (the validators compile them that way). */
function isValidPattern(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
