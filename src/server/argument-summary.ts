/**
 * An operation's arguments in one short line each, for search answers: an agent that sees
 * `"course_id*: string"` and `"kind*: video|text|quiz|file"` can call the operation without first
 * asking describe_operation for the whole schema. `*` marks a required argument; `(replaces)` or
 * `(adds)` what the value does to the stored one, where the schema says. Pure.
 */
import type { JsonSchema } from '../openapi/index.js';

/** Enums longer than this are shown by their type alone. */
const MAX_ENUM_VALUES = 8;
/** Arguments beyond this are left to describe_operation. */
const MAX_ARGUMENTS = 24;

export function argumentSummary(inputSchema: JsonSchema): string[] {
  const properties = inputSchema['properties'];
  if (!isSchema(properties)) return [];
  const required = new Set(Array.isArray(inputSchema['required']) ? inputSchema['required'] : []);
  return Object.entries(properties)
    .slice(0, MAX_ARGUMENTS)
    .map(
      ([name, schema]) =>
        `${name}${required.has(name) ? '*' : ''}: ${isSchema(schema) ? `${typeWords(schema)}${effect(schema)}` : 'any'}`,
    );
}

/**
 * What a value does to what is there, when the schema's description says so: a list that
 * replaces the stored one and a list that is added to it are sent differently (all the tags, or
 * the new ones), and the one-line type alone cannot tell them apart.
 */
function effect(schema: JsonSchema): string {
  const description = typeof schema['description'] === 'string' ? schema['description'] : '';
  if (/\breplac(?:es|ed|ing)?\b/i.test(description)) return ' (replaces)';
  if (/\bappend(?:s|ed)?\b|\badd(?:s|ed)? to the (?:existing|current|stored) /i.test(description)) return ' (adds)';
  return '';
}

function typeWords(schema: JsonSchema): string {
  const values = schema['enum'];
  if (
    Array.isArray(values) &&
    values.length <= MAX_ENUM_VALUES &&
    values.every((value) => typeof value === 'string' || value === null)
  ) {
    return values.map((value) => (value === null ? 'null' : value)).join('|');
  }
  const type = schema['type'];
  const types = Array.isArray(type)
    ? type.filter((item): item is string => typeof item === 'string')
    : typeof type === 'string'
      ? [type]
      : [];
  if (types.includes('array') && isSchema(schema['items'])) return `${typeWords(schema['items'])}[]`;
  return types.length > 0 ? types.join('|') : 'any';
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The order a list comes in, as its description states it ("oldest first", "in signup order"):
 * an agent reading the first page of a list needs it to know whether it holds the newest items.
 */
export function listOrder(description: string): string | undefined {
  const stated =
    /\b(?:(?:newest|oldest|latest|earliest|most recent)(?: [a-z]+)? (?:first|last)|in [a-z]+(?: [a-z]+)? order|by (?:start time|date|name|position))\b/i.exec(
      description,
    );
  return stated?.[0].toLowerCase();
}
