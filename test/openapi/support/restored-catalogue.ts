/**
 * The sandbox school's catalogue, built and then restored from its cache record: the restored one
 * shares one object between every place a repeated subtree occurs (`shared-subtrees.ts`), which
 * the parts that read schemas after the catalogue must never change in place.
 */
import { expect } from 'vitest';
import type { FetchLike } from '../../../src/network/index.js';
import { buildCatalogue, loadDocument, type Operation, type ToolCatalogue } from '../../../src/openapi/index.js';
import { scopeRoleSourcesOf } from '../../../src/openapi/catalogue.js';
import { decodeCatalogue } from '../../../src/openapi/catalogue-decoder.js';
import { catalogueEncoder } from '../../../src/openapi/catalogue-encoder.js';
import { convertQuietly } from '../../../src/openapi/operations.js';
import { createSandbox } from '@school-mcp/sandbox';

export const SCHOOL = 'http://127.0.0.1:1';
const KEY = 'c'.repeat(64);

export async function sandboxCatalogue(): Promise<ToolCatalogue> {
  const sandbox = createSandbox(SCHOOL, {});
  try {
    const fetchFromSandbox: FetchLike = (url, init) => sandbox.fetch(new Request(url, init));
    return await buildCatalogue((await loadDocument({ schoolUrl: SCHOOL, fetch: fetchFromSandbox })).document, {
      schoolUrl: SCHOOL,
    });
  } finally {
    await sandbox.close();
  }
}

function restored(built: ToolCatalogue): ToolCatalogue {
  const encoder = catalogueEncoder(
    { key: KEY, catalogue: built, roleSources: scopeRoleSourcesOf(built)!, documentWarnings: [] },
    Number.MAX_SAFE_INTEGER,
  );
  for (const operation of built.operations) expect(encoder.add(operation, convertQuietly(operation)!)).toBe(true);
  const writing = encoder.write();
  let step = writing.next();
  while (step.done !== true) step = writing.next();
  return decodeCatalogue(step.value!, KEY)!.catalogue;
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}

const schemasOf = (operation: Operation) => [
  operation.parameters,
  operation.body,
  operation.inputSchema,
  operation.outputSchema,
];

/** Every object reachable from the operations' schemas, with how many places hold it. */
function holders(operations: readonly Operation[]): Map<object, number> {
  const seen = new Map<object, number>();
  const visit = (value: unknown) => {
    if (typeof value !== 'object' || value === null) return;
    const count = seen.get(value) ?? 0;
    seen.set(value, count + 1);
    if (count === 0) Object.values(value).forEach(visit);
  };
  operations.flatMap(schemasOf).forEach(visit);
  return seen;
}

/** The catalogue restored from `built`'s record, its repeated subtrees shared, every schema deep-frozen. */
export function restoredAndFrozen(built: ToolCatalogue): ToolCatalogue {
  const catalogue = restored(built);
  const shared = [...holders(catalogue.operations).values()].filter((count) => count > 1);
  expect(shared.length).toBeGreaterThan(0);
  catalogue.operations.forEach((operation) => schemasOf(operation).forEach(deepFreeze));
  return catalogue;
}

/** Crude arguments for every parameter of an operation, of the declared type. */
export function sampleArguments(operation: Operation): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const parameter of operation.parameters) {
    const type = parameter.schema['type'];
    args[parameter.argument] =
      type === 'integer' || type === 'number' ? 1 : type === 'boolean' ? true : type === 'array' ? ['a'] : 'a';
  }
  if (operation.body?.mode === 'wrapped' && operation.body.argument !== undefined) args[operation.body.argument] = {};
  return args;
}
