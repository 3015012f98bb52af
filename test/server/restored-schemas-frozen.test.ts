/**
 * A catalogue restored from the cache shares one object between every place a repeated subtree
 * occurs (`shared-subtrees.ts`). That is safe only while nothing downstream changes a schema in
 * place: here every restored schema is deep-frozen (a write to it throws in strict mode) and then
 * goes through everything that reads schemas after the catalogue: the tool list's budget and its
 * simplification, the compact default listing, the SDK's registration and `tools/list`, and the
 * argument and output checks (the executor's request building has its own test).
 */
import { describe, expect, it } from 'vitest';
import { fitListedSchemas, type ToolCatalogue } from '../../src/openapi/index.js';
import {
  createSchoolServerFactory,
  listServerTools,
  planTools,
  type AccountService,
  type OperationCaller,
  type ToolsetChoice,
} from '../../src/server/index.js';
import { checkOutput, compileOperationTool } from '../../src/server/operation-tools.js';
import { restoredAndFrozen, sampleArguments, sandboxCatalogue } from '../openapi/support/restored-catalogue.js';

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

describe('restored schemas, shared and deep-frozen', () => {
  it('go through listing, simplification and checks unchanged, listed byte-identical to the built ones', async () => {
    const built = await sandboxCatalogue();
    const catalogue = restoredAndFrozen(built);

    const all: ToolsetChoice = { mode: 'toolsets', toolsets: 'all' };
    expect(await listing(catalogue, all)).toBe(await listing(built, all));
    expect(await listing(catalogue, { mode: 'default' })).toBe(await listing(built, { mode: 'default' }));
    // A budget this small lists every tool simplified.
    const simplified = await listing(catalogue, all, 1_000);
    expect(simplified).toBe(await listing(built, all, 1_000));
    expect(simplified).toContain('its shape is not shown');

    for (const operation of catalogue.operations) {
      const tool = compileOperationTool(operation);
      const args = sampleArguments(operation);
      await tool.inputSchema['~standard'].validate(args);
      await tool.inputSchema['~standard'].validate({ ...args, not_an_argument: 1 });
      await checkOutput(tool, { content: [{ type: 'text', text: '{}' }], structuredContent: { id: 1 } });
    }
  });
});
