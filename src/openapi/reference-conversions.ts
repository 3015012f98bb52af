/**
 * Conversions of a component reached through a schema that is only a `$ref`, remembered per
 * checked document: operations name the same components as their bodies, results and list items
 * again and again. A conversion that nothing cut short (no budget, depth or recursion limit met)
 * comes out the same wherever it is replayed with as much depth and meter left as it used, and no
 * object or reference already at its recursion limit; the converter checks that before a replay
 * (`schema-converter.ts`), and this module checks the meter and depth. What is handed out is
 * always a copy.
 */
import { cloneJson } from './json-clone.js';
import type { JsonRecord } from './json-value.js';
import type { JsonSchema } from './operation.js';

/** The part of a meter and budget this module reads. */
interface MeterState {
  nodes: number;
  bytes: number;
  overBudget: boolean;
}

interface Limits {
  readonly maxNodes: number;
  readonly maxBytes: number;
}

export interface RememberedConversion {
  readonly schema: JsonSchema;
  readonly nodes: number;
  readonly bytes: number;
  /** How many levels below its start the conversion went; a replay needs that much depth left. */
  readonly levels?: number;
}

const byDocument = new WeakMap<JsonRecord, Map<string, RememberedConversion>>();

/** The `$ref` of a schema that holds nothing else, else undefined. */
export function soleReference(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined;
  const reference = (schema as JsonRecord)['$ref'];
  if (typeof reference !== 'string') return undefined;
  for (const key in schema) if (key !== '$ref' && Object.hasOwn(schema, key)) return undefined;
  return reference;
}

/** Pure: whether a conversion that spent `spent` may be replayed on `meter` without passing `limits`. */
export function fitsMeter(
  spent: Pick<RememberedConversion, 'nodes' | 'bytes'>,
  meter: MeterState,
  limits: Limits,
): boolean {
  return (
    !meter.overBudget && meter.nodes + spent.nodes <= limits.maxNodes && meter.bytes + spent.bytes <= limits.maxBytes
  );
}

/** A copy of the remembered conversion, its spending added to `meter`; undefined when none fits. */
export function replayConversion(
  root: JsonRecord,
  key: string,
  meter: MeterState,
  limits: Limits,
  levelsLeft = Number.POSITIVE_INFINITY,
): RememberedConversion | undefined {
  const remembered = byDocument.get(root)?.get(key);
  if (remembered === undefined || (remembered.levels ?? 0) > levelsLeft || !fitsMeter(remembered, meter, limits))
    return undefined;
  meter.nodes += remembered.nodes;
  meter.bytes += remembered.bytes;
  return { ...remembered, schema: cloneJson(remembered.schema) };
}

/** Keeps a copy of `schema`, which the caller goes on to hand out itself. */
export function rememberConversion(
  root: JsonRecord,
  key: string,
  schema: JsonSchema,
  spent: Omit<RememberedConversion, 'schema'>,
): void {
  let remembered = byDocument.get(root);
  if (remembered === undefined) {
    remembered = new Map();
    byDocument.set(root, remembered);
  }
  remembered.set(key, { ...spent, schema: cloneJson(schema) });
}

/** Whether a conversion is remembered under `key` (then remembering it again would change nothing). */
export function isRemembered(root: JsonRecord, key: string): boolean {
  return byDocument.get(root)?.has(key) === true;
}
