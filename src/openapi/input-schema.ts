/**
 * One tool input schema per operation: path, query and header parameters and the request body as
 * properties of one closed object, `{type:'object', properties, required?, additionalProperties:false}`,
 * with no composition keyword at the root (hosts refuse top-level `anyOf`/`oneOf`/`allOf`).
 *
 * Argument names. Each parameter or body property asks for its own name, made to fit
 * `^[a-zA-Z0-9_.-]{1,64}$` (the property-key rule of the Anthropic and OpenAI tool APIs): other
 * characters become `_`. Names are handed out in a fixed order, path parameters first, then query,
 * then header parameters (document order within each), then body properties (schema order). The
 * first to ask gets the plain name; a later one that collides gets `<name>_<location>` (e.g.
 * `id_body`, `page_header`), then `<name>_<location>_2`, `_3`, ... The rule depends only on the
 * document, so names are the same on every run. `OperationParameter.argument` and
 * `OperationBody.propertyArguments` record the mapping back to wire names.
 *
 * Bodies. An object body with properties is merged: its properties become arguments. Anything
 * else (arrays, scalars, free-form objects, files) is wrapped: one argument, `body`, holds it. A
 * top-level union of object bodies is merged as the union of the variants' properties, none
 * required, and says so in its description.
 */
import type { DeclaredParameter } from './parameters.js';
import type { JsonSchema, OperationBody, OperationParameter } from './operation.js';
import type { DeclaredBody } from './declared-body.js';
import { withImpliedTypes } from './implied-types.js';
import { isRecord } from './json-value.js';
import { isObjectSchema } from './schema-kinds.js';

export interface ToolInput {
  readonly inputSchema: JsonSchema;
  readonly parameters: readonly OperationParameter[];
  readonly body: OperationBody | undefined;
}

const MAX_ARGUMENT_LENGTH = 64;

export function buildToolInput(
  parameters: readonly DeclaredParameter[],
  declaredBody: DeclaredBody | undefined,
): ToolInput {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const claim = argumentClaimer();

  const operationParameters = parameters.map((parameter): OperationParameter => {
    const argument = claim(parameter.name, parameter.in);
    properties[argument] =
      argument === parameter.name
        ? parameter.schema
        : renamedSchema(parameter.schema, parameter.name, `${parameter.in} parameter`);
    if (parameter.required) required.push(argument);
    return { ...parameter, argument };
  });

  let body: OperationBody | undefined;
  if (declaredBody) {
    const mergeable = mergeableBodySchema(declaredBody.schema);
    if (mergeable && !declaredBody.isFile) {
      const propertyArguments: Record<string, string> = {};
      const bodyRequired = new Set(declaredBody.required ? stringsOf(mergeable['required']) : []);
      for (const [name, schema] of Object.entries(mergeable['properties'] as Record<string, JsonSchema>)) {
        const argument = claim(name, 'body');
        propertyArguments[argument] = name;
        properties[argument] = argument === name ? schema : renamedSchema(schema, name, 'body property');
        if (bodyRequired.has(name)) required.push(argument);
      }
      body = {
        contentType: declaredBody.contentType,
        required: declaredBody.required,
        schema: mergeable,
        mode: 'merged',
        propertyArguments,
        ...(declaredBody.fileProperties.length > 0 ? { fileProperties: declaredBody.fileProperties } : {}),
      };
    } else {
      const argument = claim('body', 'body');
      properties[argument] = declaredBody.schema;
      if (declaredBody.required) required.push(argument);
      body = {
        contentType: declaredBody.contentType,
        required: declaredBody.required,
        schema: declaredBody.schema,
        mode: 'wrapped',
        argument,
        ...(declaredBody.isFile ? { file: true } : {}),
      };
    }
  }

  const typedProperties = Object.fromEntries(
    Object.entries(properties).map(([argument, schema]) => [argument, withImpliedTypes(schema)]),
  );
  const inputSchema: JsonSchema = { type: 'object', properties: typedProperties };
  if (required.length > 0) inputSchema['required'] = [...new Set(required)];
  inputSchema['additionalProperties'] = false;
  return { inputSchema, parameters: operationParameters, body };
}

/**
 * Hands out argument names by the rule in the file header. A suffix always survives the 64-character
 * cut (the base is shortened to make room), so two wire names that agree on their first 64
 * characters still get distinct arguments, and the counter for a base resumes where it stopped:
 * each claim is one set lookup on average, whatever the document.
 */
export function argumentClaimer(): (name: string, location: string) => string {
  const taken = new Set<string>();
  const nextCounter = new Map<string, number>();
  const claim = (argument: string) => {
    taken.add(argument);
    return argument;
  };
  return (name, location) => {
    const base = argumentName(name) || location;
    if (!taken.has(base)) return claim(base);
    const located = withSuffix(base, `_${location}`);
    if (!taken.has(located)) return claim(located);
    const key = `${base}\u0000${location}`;
    for (let counter = nextCounter.get(key) ?? 2; ; counter += 1) {
      const candidate = withSuffix(base, `_${location}_${counter}`);
      if (!taken.has(candidate)) {
        nextCounter.set(key, counter + 1);
        return claim(candidate);
      }
    }
  };
}

/** A wire name as a property key of `^[a-zA-Z0-9_.-]{1,64}$` (empty when nothing is left). */
function argumentName(name: string): string {
  return fit(name.replace(/[^a-zA-Z0-9_.-]+/g, '_').replace(/^_+|_+$/g, ''));
}

function fit(name: string): string {
  return name.length <= MAX_ARGUMENT_LENGTH ? name : name.slice(0, MAX_ARGUMENT_LENGTH);
}

function withSuffix(base: string, suffix: string): string {
  return base.slice(0, MAX_ARGUMENT_LENGTH - suffix.length) + suffix;
}

/** The object schema whose properties become arguments, or undefined when the body is wrapped. */
function mergeableBodySchema(schema: JsonSchema): JsonSchema | undefined {
  const union = schema['oneOf'] ?? schema['anyOf'];
  if (Array.isArray(union)) return unionOfVariants(schema, union);
  if (!isObjectSchema(schema) || !isRecord(schema['properties']) || Object.keys(schema['properties']).length === 0)
    return undefined;
  // A body that also accepts arbitrary extra keys cannot be flattened into a closed root.
  const extra = schema['additionalProperties'];
  if (extra === true || isRecord(extra) || isRecord(schema['patternProperties'])) return undefined;
  if (Object.keys(schema).some((key) => key === 'allOf' || key === 'not')) return undefined;
  return schema;
}

/** Keywords a union variant may carry and still be flattened into its properties. */
const FLATTENABLE_VARIANT_KEYS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'description',
  'title',
]);

function unionOfVariants(schema: JsonSchema, variants: unknown[]): JsonSchema | undefined {
  const properties: Record<string, unknown> = {};
  for (const variant of variants) {
    if (!isRecord(variant) || !isObjectSchema(variant) || !isRecord(variant['properties'])) return undefined;
    if (Object.keys(variant).some((key) => !FLATTENABLE_VARIANT_KEYS.has(key))) return undefined;
    // The first variant that names a property keeps its schema for it.
    for (const [name, property] of Object.entries(variant['properties'])) {
      if (!Object.hasOwn(properties, name)) properties[name] = property;
    }
  }
  if (Object.keys(properties).length === 0) return undefined;
  const note = `One of ${variants.length} shapes: give the properties of one of them.`;
  const description = typeof schema['description'] === 'string' ? `${schema['description']} ${note}` : note;
  return { type: 'object', description, properties };
}

function renamedSchema(schema: JsonSchema, wireName: string, where: string): JsonSchema {
  const note = `Sent as the ${where} "${wireName}".`;
  const description = typeof schema['description'] === 'string' ? `${schema['description']} (${note})` : note;
  return { ...schema, description };
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
