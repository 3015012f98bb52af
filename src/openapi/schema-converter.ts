/**
 * An OpenAPI 3.0/3.1 Schema Object to a self-contained JSON Schema 2020-12 object, as tool input
 * or output. Only keywords from an allowlist are carried, so OpenAPI-only keywords
 * (`discriminator`, `xml`, `x-*`) and anything a host might trip on stay behind.
 *
 * - OpenAPI 3.0 `nullable: true` becomes a type array (and `null` joins an `enum`); boolean
 *   `exclusiveMinimum`/`exclusiveMaximum` become the numeric 2020-12 form.
 * - `example` becomes `examples: [example]`.
 * - Input leaves `readOnly` properties out, output leaves `writeOnly` properties out.
 * - `allOf` of object schemas is merged into one object.
 * - References are resolved here, on read, and inlined until a reference recurs
 *   `MAX_REFERENCE_RECURSION` times inside itself; the next level becomes a permissive schema with
 *   a note, as does anything past the depth or node budget. No output object is ever shared with
 *   the document, and no cycle can be produced.
 * - The JSON produced is counted as it is produced (API-11): literals (`enum`, `examples`,
 *   `default`, `const`) and patterns too long to be worth a tool's context are left out, and once
 *   the byte budget is passed the conversion stops and marks its meter over budget, so that a few
 *   kilobytes of `$ref` fan-out or one large example repeated through references cost neither
 *   memory nor time. What an over-budget conversion returns is incomplete; callers replace it.
 *
 * This file walks the schema and its references; a schema's own keywords are converted by
 * `schema-keywords.ts`, within the budgets of `schema-budget.ts`.
 * @see SECURITY.md API-11
 */
import { resolvePointer } from './json-pointer.js';
import { jsonLengthWithin } from './json-size.js';
import { arrayOr, entriesOf, isRecord, type JsonRecord } from './json-value.js';
import type { JsonSchema } from './operation.js';
import { plainText } from './plain-text.js';
import { resolveSchema } from './resolve-schema.js';
import { newSchemaMeter, type SchemaBudget, type SchemaMeter } from './schema-budget.js';
import { simplifyComposition } from './schema-composition.js';
import { JSON_TYPES, convertValueChecks, isKeptPattern, ownKeywords } from './schema-keywords.js';
import { isRemembered, rememberConversion, replayConversion, soleReference } from './reference-conversions.js';

export type SchemaDirection = 'input' | 'output';

/** How many times one reference may nest inside itself before the next level is left open. */
const MAX_REFERENCE_RECURSION = 1;

interface Conversion {
  readonly root: JsonRecord;
  readonly direction: SchemaDirection;
  readonly budget: SchemaBudget;
  readonly references: Map<string, number>;
  /** How often each document object is being converted on the current path (references revisit them). */
  readonly ancestors: Map<object, number>;
  readonly meter: SchemaMeter;
  /** Schemas left open or cut short so far, for whatever reason. */
  cutShort: number;
  /** Objects and references entered as often as the recursion limit allows, on the current path. */
  saturated: number;
  /** The deepest level converted so far, where remembered conversions measure their depth. */
  deepest: number;
}

/**
 * Converts one schema; `root` is the checked document its `$ref`s point into. Pass the same
 * `meter` to the conversions that make up one tool schema; read `meter.overBudget` afterwards.
 */
export function convertSchema(
  schema: unknown,
  root: JsonRecord,
  direction: SchemaDirection,
  budget: SchemaBudget,
  meter: SchemaMeter = newSchemaMeter(),
): JsonSchema {
  const conversion: Conversion = {
    root,
    direction,
    budget,
    references: new Map(),
    ancestors: new Map(),
    meter,
    cutShort: 0,
    saturated: 0,
    deepest: 0,
  };
  return convert(conversion, schema, 0);
}

/** Counts `length` characters of output; true while the budget holds. */
function spend(conversion: Conversion, length: number): boolean {
  const { meter } = conversion;
  meter.bytes += length;
  if (meter.bytes > conversion.budget.maxBytes) meter.overBudget = true;
  if (!meter.overBudget) return true;
  conversion.cutShort += 1;
  return false;
}

function convert(conversion: Conversion, schema: unknown, depth: number): JsonSchema {
  // Past the byte budget nothing more is worth producing: the caller discards the result.
  if (!spend(conversion, 2)) return {};
  if (schema === true || schema === undefined) return {};
  if (schema === false) return { not: {} };
  if (!isRecord(schema)) return {};
  if (typeof schema['$ref'] === 'string') return convertReference(conversion, schema, schema['$ref'], depth);
  const visits = conversion.ancestors.get(schema) ?? 0;
  // A guard of last resort: the checked copy has no object cycle, so only references revisit objects.
  if (visits > MAX_REFERENCE_RECURSION)
    return openSchema(conversion, schema, 'Recursive structure; not expanded further.');
  conversion.meter.nodes += 1;
  if (depth > conversion.budget.maxDepth || conversion.meter.nodes > conversion.budget.maxNodes) {
    return openSchema(conversion, schema, 'Nested structure not expanded here.');
  }
  if (depth > conversion.deepest) conversion.deepest = depth;
  conversion.ancestors.set(schema, visits + 1);
  if (visits + 1 > MAX_REFERENCE_RECURSION) conversion.saturated += 1;
  try {
    return convertKeywords(conversion, schema, depth);
  } finally {
    conversion.ancestors.set(schema, visits);
    if (visits + 1 > MAX_REFERENCE_RECURSION) conversion.saturated -= 1;
  }
}

function convertReference(conversion: Conversion, schema: JsonRecord, reference: string, depth: number): JsonSchema {
  const target = resolvePointer(conversion.root, reference);
  const name = reference.slice(reference.lastIndexOf('/') + 1);
  if (!target.found) return openSchema(conversion, schema, `Unresolved reference ${name.slice(0, 100)}.`);
  const seen = conversion.references.get(reference) ?? 0;
  if (seen > MAX_REFERENCE_RECURSION)
    return openSchema(
      conversion,
      isRecord(target.value) ? target.value : {},
      `Recursive ${name.slice(0, 100)}; not expanded further.`,
    );
  conversion.references.set(reference, seen + 1);
  const saturatedElsewhere = conversion.saturated > 0;
  if (seen + 1 > MAX_REFERENCE_RECURSION) conversion.saturated += 1;
  try {
    return convertComponent(conversion, schema, reference, depth, saturatedElsewhere);
  } finally {
    conversion.references.set(reference, seen);
    if (seen + 1 > MAX_REFERENCE_RECURSION) conversion.saturated -= 1;
  }
}

/**
 * The target of a reference, converted, or remembered from an earlier conversion of it. A
 * conversion that nothing cut short went around no cycle, so it comes out the same wherever no
 * object or reference is already at its recursion limit, given the depth and meter it used.
 */
function convertComponent(
  conversion: Conversion,
  schema: JsonRecord,
  reference: string,
  depth: number,
  saturatedElsewhere: boolean,
): JsonSchema {
  const { root, budget, meter } = conversion;
  const key =
    soleReference(schema) === undefined || saturatedElsewhere
      ? undefined
      : `within ${conversion.direction} ${budget.maxDepth} ${budget.maxNodes} ${budget.maxBytes} ${reference}`;
  const replayed = key === undefined ? undefined : replayConversion(root, key, meter, budget, budget.maxDepth - depth);
  if (replayed !== undefined) {
    conversion.deepest = Math.max(conversion.deepest, depth + (replayed.levels ?? 0));
    return replayed.schema;
  }
  const [nodesBefore, bytesBefore, cutBefore, deepestBefore] = [
    meter.nodes,
    meter.bytes,
    conversion.cutShort,
    conversion.deepest,
  ];
  conversion.deepest = depth;
  const converted = convert(conversion, resolveSchema(schema, root), depth);
  const levels = conversion.deepest - depth;
  conversion.deepest = Math.max(deepestBefore, conversion.deepest);
  if (key !== undefined && conversion.cutShort === cutBefore && !isRemembered(root, key)) {
    rememberConversion(root, key, converted, {
      nodes: meter.nodes - nodesBefore,
      bytes: meter.bytes - bytesBefore,
      levels,
    });
  }
  return converted;
}

/** A schema that accepts what the original might hold, saying why it is not spelled out. */
function openSchema(conversion: Conversion, schema: JsonRecord, note: string): JsonSchema {
  const type = schema['type'];
  const typed = typeof type === 'string' && JSON_TYPES.has(type) ? { type } : {};
  const description =
    typeof schema['description'] === 'string' ? `${plainText(schema['description'], 200)} (${note})` : note;
  conversion.cutShort += 1;
  spend(conversion, description.length + 40);
  return { ...typed, description };
}

/**
 * A schema's own keywords as converted, with their JSON length, per document object: references
 * bring the same objects back many times, and cleaning text and checking patterns is the costly part.
 */
const ownKeywordsOf = new WeakMap<JsonRecord, { readonly keywords: JsonSchema; readonly length: number }>();

function convertKeywords(conversion: Conversion, schema: JsonRecord, depth: number): JsonSchema {
  let own = ownKeywordsOf.get(schema);
  if (!own) {
    const keywords = ownKeywords(schema);
    own = { keywords, length: jsonLengthWithin(keywords, Number.MAX_SAFE_INTEGER) ?? 0 };
    ownKeywordsOf.set(schema, own);
  }
  // Copied, arrays too, so that no two tools share a schema object.
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(own.keywords)) out[key] = Array.isArray(value) ? [...value] : value;
  // Everything so far is this node's own output; what follows is counted by the nodes it makes.
  if (!spend(conversion, own.length)) return out;
  convertValueChecks(schema, out);
  convertArrayKeywords(conversion, schema, out, depth);
  convertObjectKeywords(conversion, schema, out, depth);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const variants = convertEach(conversion, arrayOr(schema[key]), depth);
    if (variants.length > 0) out[key] = variants;
  }
  if ('not' in schema) out['not'] = convert(conversion, schema['not'], depth + 1);
  return simplifyComposition(out);
}

/** Converts items in order, stopping once the budget is passed (the result is discarded then). */
function convertEach(conversion: Conversion, items: readonly unknown[], depth: number): JsonSchema[] {
  const converted: JsonSchema[] = [];
  for (const item of items) {
    if (conversion.meter.overBudget) break;
    converted.push(convert(conversion, item, depth + 1));
  }
  return converted;
}

function convertArrayKeywords(conversion: Conversion, schema: JsonRecord, out: JsonSchema, depth: number): void {
  if ('items' in schema && !Array.isArray(schema['items']))
    out['items'] = convert(conversion, schema['items'], depth + 1);
  const prefixItems = Array.isArray(schema['prefixItems'])
    ? schema['prefixItems']
    : Array.isArray(schema['items'])
      ? schema['items']
      : undefined;
  if (prefixItems) out['prefixItems'] = convertEach(conversion, prefixItems, depth);
}

function convertObjectKeywords(conversion: Conversion, schema: JsonRecord, out: JsonSchema, depth: number): void {
  const hidden = conversion.direction === 'input' ? 'readOnly' : 'writeOnly';
  const left = new Set<string>();
  if (isRecord(schema['properties'])) {
    const properties: Record<string, JsonSchema> = {};
    for (const [name, property] of entriesOf(schema['properties'])) {
      if (!spend(conversion, name.length + 4)) break;
      const resolved = resolveSchema(property, conversion.root);
      if (isRecord(resolved) && resolved[hidden] === true) {
        left.add(name);
        continue;
      }
      properties[name] = convert(conversion, property, depth + 1);
    }
    out['properties'] = properties;
  }
  const required = [
    ...new Set(
      arrayOr(schema['required']).filter((name): name is string => typeof name === 'string' && !left.has(name)),
    ),
  ];
  if (required.length > 0 && spend(conversion, jsonLengthWithin(required, Number.MAX_SAFE_INTEGER) ?? 0))
    out['required'] = required;
  const additional = schema['additionalProperties'];
  if (typeof additional === 'boolean') out['additionalProperties'] = additional;
  else if (isRecord(additional)) out['additionalProperties'] = convert(conversion, additional, depth + 1);
  if (isRecord(schema['patternProperties'])) {
    const patterns: Record<string, JsonSchema> = {};
    for (const [pattern, property] of entriesOf(schema['patternProperties'])) {
      if (!spend(conversion, pattern.length + 4)) break;
      if (isKeptPattern(pattern)) patterns[pattern] = convert(conversion, property, depth + 1);
    }
    out['patternProperties'] = patterns;
  }
}
