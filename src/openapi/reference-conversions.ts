/**
 * Conversions of a schema that is only a `$ref`, remembered per checked document: operations name
 * the same component as their body or result again and again, and in a fresh conversion such a
 * schema converts the same way every time. Only the meter it shares with the tool's other
 * conversions can change the outcome, so a remembered result is used only when the meter has room
 * for everything that conversion spent, and only a conversion that no budget cut short is kept.
 * What is handed out is always a copy.
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
export function fitsMeter(spent: Pick<RememberedConversion, 'nodes' | 'bytes'>, meter: MeterState, limits: Limits): boolean {
  return !meter.overBudget && meter.nodes + spent.nodes <= limits.maxNodes && meter.bytes + spent.bytes <= limits.maxBytes;
}

/** A copy of the remembered conversion, its spending added to `meter`; undefined when none fits. */
export function replayConversion(root: JsonRecord, key: string, meter: MeterState, limits: Limits): JsonSchema | undefined {
  const remembered = byDocument.get(root)?.get(key);
  if (remembered === undefined || !fitsMeter(remembered, meter, limits)) return undefined;
  meter.nodes += remembered.nodes;
  meter.bytes += remembered.bytes;
  return cloneJson(remembered.schema);
}

/** Keeps a copy of `schema`, which the caller goes on to hand out itself. */
export function rememberConversion(root: JsonRecord, key: string, schema: JsonSchema, spent: Pick<RememberedConversion, 'nodes' | 'bytes'>): void {
  let remembered = byDocument.get(root);
  if (remembered === undefined) {
    remembered = new Map();
    byDocument.set(root, remembered);
  }
  remembered.set(key, { schema: cloneJson(schema), nodes: spent.nodes, bytes: spent.bytes });
}
