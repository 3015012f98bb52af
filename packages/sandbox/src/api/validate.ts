/**
 * Pure validation of request input against the schemas the route table publishes. It covers the
 * JSON Schema subset that `schema.ts` builds, and names every offending field so a 400 tells the
 * caller exactly what to fix.
 */
import { DATE_OR_DATE_TIME_PATTERN, isDateOrDateTime, isDateTime, isDay } from './school-time.js';
import { refName, type JsonSchema } from './schema.js';

export interface FieldProblem {
  /** Dotted path of the field, e.g. `price_cents` or `fields.2.label`. */
  readonly field: string;
  readonly message: string;
}

export type Components = Readonly<Record<string, JsonSchema>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateValue(value: unknown, schema: JsonSchema, components: Components, field = ''): FieldProblem[] {
  const name = refName(schema);
  if (name !== undefined) {
    const target = components[name];
    return target ? validateValue(value, target, components, field) : [{ field, message: `unknown schema ${name}` }];
  }
  const problem = (message: string): FieldProblem[] => [{ field: field || '(body)', message }];
  if (value === null) {
    const allowsNull = Array.isArray(schema.type) || schema.enum?.includes(null);
    return allowsNull ? [] : problem('must not be null');
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum && !schema.enum.includes(value as string)) {
    return problem(`must be one of ${schema.enum.filter((item) => item !== null).join(', ')}`);
  }
  switch (type) {
    case 'string':
      return typeof value === 'string' ? validateString(value, schema, problem) : problem('must be a string');
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return problem('must be an integer');
      return validateNumber(value, schema, problem);
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return problem('must be a number');
      return validateNumber(value, schema, problem);
    case 'boolean':
      return typeof value === 'boolean' ? [] : problem('must be true or false');
    case 'array':
      return validateArray(value, schema, components, field, problem);
    case 'object':
      return validateObject(value, schema, components, field, problem);
    default:
      return [];
  }
}

function validateString(
  value: string,
  schema: JsonSchema,
  problem: (message: string) => FieldProblem[],
): FieldProblem[] {
  if (schema.minLength !== undefined && value.length < schema.minLength) {
    return problem(schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters`);
  }
  if (schema.maxLength !== undefined && value.length > schema.maxLength)
    return problem(`must be at most ${schema.maxLength} characters`);
  if (schema.pattern === DATE_OR_DATE_TIME_PATTERN) {
    return isDateOrDateTime(value)
      ? []
      : problem('must be a date like 2026-11-27 or an RFC 3339 date-time like 2026-11-27T09:30:00+01:00');
  }
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value))
    return problem(`must match ${schema.pattern}`);
  switch (schema.format) {
    case 'email':
      return EMAIL.test(value) ? [] : problem('must be an email address');
    case 'date':
      return isDay(value) ? [] : problem('must be a date like 2025-03-14');
    case 'date-time':
      return isDateTime(value) ? [] : problem('must be an RFC 3339 date-time like 2025-03-14T09:30:00Z');
    case 'uri':
      return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol) ? [] : problem('must be an http(s) URL');
    default:
      return [];
  }
}

function validateNumber(
  value: number,
  schema: JsonSchema,
  problem: (message: string) => FieldProblem[],
): FieldProblem[] {
  if (schema.minimum !== undefined && value < schema.minimum) return problem(`must be at least ${schema.minimum}`);
  if (schema.maximum !== undefined && value > schema.maximum) return problem(`must be at most ${schema.maximum}`);
  return [];
}

function validateArray(
  value: unknown,
  schema: JsonSchema,
  components: Components,
  field: string,
  problem: (message: string) => FieldProblem[],
): FieldProblem[] {
  if (!Array.isArray(value)) return problem('must be an array');
  if (schema.minItems !== undefined && value.length < schema.minItems)
    return problem(`must have at least ${schema.minItems} items`);
  if (schema.maxItems !== undefined && value.length > schema.maxItems)
    return problem(`must have at most ${schema.maxItems} items`);
  const items = schema.items;
  if (!items) return [];
  return value.flatMap((item, index) => validateValue(item, items, components, join(field, String(index))));
}

function validateObject(
  value: unknown,
  schema: JsonSchema,
  components: Components,
  field: string,
  problem: (message: string) => FieldProblem[],
): FieldProblem[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return problem('must be an object');
  const record = value as Record<string, unknown>;
  const properties = schema.properties ?? {};
  const problems: FieldProblem[] = [];
  if (schema.minProperties !== undefined && Object.keys(record).length < schema.minProperties) {
    problems.push(...problem(`must set at least ${schema.minProperties} field`));
  }
  for (const required of schema.required ?? []) {
    if (record[required] === undefined) problems.push({ field: join(field, required), message: 'is required' });
  }
  for (const [key, item] of Object.entries(record)) {
    const propertySchema = properties[key];
    if (propertySchema) {
      if (item !== undefined) problems.push(...validateValue(item, propertySchema, components, join(field, key)));
    } else if (typeof schema.additionalProperties === 'object') {
      problems.push(...validateValue(item, schema.additionalProperties, components, join(field, key)));
    } else if (schema.additionalProperties === false) {
      problems.push({ field: join(field, key), message: 'is not a known field' });
    }
  }
  return problems;
}

function join(parent: string, key: string): string {
  return parent ? `${parent}.${key}` : key;
}

/**
 * Reads query parameters into typed values by the route's query schema: integers, numbers and
 * booleans are parsed, unknown names are refused, repeated ones too unless the parameter is an
 * array (given repeated or comma-separated), and defaults are filled in.
 */
export function readQuery(
  search: URLSearchParams,
  schema: JsonSchema,
  components: Components,
): { value: Record<string, unknown>; problems: FieldProblem[] } {
  const properties = schema.properties ?? {};
  const value: Record<string, unknown> = {};
  const problems: FieldProblem[] = [];
  for (const name of new Set(search.keys())) {
    const propertySchema = properties[name];
    if (!propertySchema) {
      problems.push({ field: name, message: 'is not a known query parameter' });
      continue;
    }
    const raw = search.getAll(name);
    if (propertySchema.type === 'array') {
      const itemSchema = propertySchema.items ?? {};
      const parsed = raw.flatMap((text) => text.split(',')).map((text) => parseScalar(text.trim(), itemSchema));
      problems.push(...validateValue(parsed, propertySchema, components, name));
      value[name] = [...new Set(parsed)];
      continue;
    }
    if (raw.length > 1) {
      problems.push({ field: name, message: 'must be given once' });
      continue;
    }
    const parsed = parseScalar(raw[0]!, propertySchema);
    problems.push(...validateValue(parsed, propertySchema, components, name));
    value[name] = parsed;
  }
  for (const [name, propertySchema] of Object.entries(properties)) {
    if (value[name] === undefined && propertySchema.default !== undefined) value[name] = propertySchema.default;
  }
  for (const required of schema.required ?? []) {
    if (value[required] === undefined) problems.push({ field: required, message: 'is required' });
  }
  return { value, problems };
}

function parseScalar(raw: string, schema: JsonSchema): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') {
    return /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
  }
  if (type === 'boolean') {
    if (raw === 'true') return true;
    if (raw === 'false') return false;
  }
  return raw;
}
