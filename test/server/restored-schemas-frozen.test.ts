/**
 * A catalogue restored from the cache shares one object between every place a repeated subtree
 * occurs (`shared-subtrees.ts`). That is safe only while nothing downstream changes a schema in
 * place: here every restored schema is deep-frozen (a write to it throws in strict mode) and then
 * goes through everything that reads schemas after the catalogue: the tool list's budget and its
 * simplification, the compact default listing, the SDK's registration and `tools/list`, argument
 * and output checks, and the executor's request building.
 */
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../src/network/index.js';
import {
  buildCatalogue,
  fitListedSchemas,
  loadDocument,
  type Operation,
  type ToolCatalogue,
} from '../../src/openapi/index.js';
import { scopeRoleSourcesOf } from '../../src/openapi/catalogue.js';
import { decodeCatalogue } from '../../src/openapi/catalogue-decoder.js';
import { catalogueEncoder } from '../../src/openapi/catalogue-encoder.js';
import { convertQuietly } from '../../src/openapi/operations.js';
import { createSandbox } from '@school-mcp/sandbox';
import {
  createSchoolServerFactory,
  listServerTools,
  planTools,
  type AccountService,
  type OperationCaller,
  type ToolsetChoice,
} from '../../src/server/index.js';
import { checkOutput, compileOperationTool } from '../../src/server/operation-tools.js';
import { buildRequest } from '../../src/executor/build-request.js';

const SCHOOL = 'http://127.0.0.1:1';
const KEY = 'c'.repeat(64);

async function sandboxCatalogue(): Promise<ToolCatalogue> {
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

const neverCalled: OperationCaller = () => Promise.reject(new Error('not called in this test'));
const signedOut: AccountService = {
  status: () => Promise.reject(new Error('no account')),
  signOut: () => Promise.reject(new Error('no account')),
};

async function listing(catalogue: ToolCatalogue, choice: ToolsetChoice, budget?: number): Promise<string> {
  const planned = planTools(catalogue, choice, false);
  const fitted = fitListedSchemas(planned.direct, budget);
  const factory = createSchoolServerFactory({
    catalogue,
    plan: { ...planned, direct: fitted.operations },
    call: neverCalled,
    account: signedOut,
    schoolName: 'school',
    version: '0',
  });
  return JSON.stringify(await listServerTools(factory));
}

function sampleArguments(operation: Operation): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const parameter of operation.parameters) {
    const type = parameter.schema['type'];
    args[parameter.argument] =
      type === 'integer' || type === 'number' ? 1 : type === 'boolean' ? true : type === 'array' ? ['a'] : 'a';
  }
  if (operation.body?.mode === 'wrapped' && operation.body.argument !== undefined) args[operation.body.argument] = {};
  return args;
}

describe('restored schemas, shared and deep-frozen', () => {
  it('go through listing, simplification, checks and request building unchanged, listed byte-identical to the built ones', async () => {
    const built = await sandboxCatalogue();
    const catalogue = restored(built);
    const shared = [...holders(catalogue.operations).values()].filter((count) => count > 1);
    expect(shared.length).toBeGreaterThan(0);
    catalogue.operations.forEach((operation) => schemasOf(operation).forEach(deepFreeze));

    const all: ToolsetChoice = { mode: 'toolsets', toolsets: 'all' };
    expect(await listing(catalogue, all)).toBe(await listing(built, all));
    expect(await listing(catalogue, { mode: 'default' })).toBe(await listing(built, { mode: 'default' }));
    // A budget this small lists every tool simplified.
    const simplified = await listing(catalogue, all, 1_000);
    expect(simplified).toBe(await listing(built, all, 1_000));
    expect(simplified).toContain('its shape is not shown');

    let requests = 0;
    for (const operation of catalogue.operations) {
      const tool = compileOperationTool(operation);
      const args = sampleArguments(operation);
      await tool.inputSchema['~standard'].validate(args);
      await tool.inputSchema['~standard'].validate({ ...args, not_an_argument: 1 });
      await checkOutput(tool, { content: [{ type: 'text', text: '{}' }], structuredContent: { id: 1 } });
      try {
        buildRequest(operation, args, `${SCHOOL}/api`);
        requests += 1;
      } catch (error) {
        // Arguments this crude may be refused; a write to a frozen schema would be a TypeError.
        expect(error).not.toBeInstanceOf(TypeError);
      }
    }
    expect(requests).toBeGreaterThan(catalogue.operations.length / 2);
  });
});
