/**
 * A catalogue restored from the cache shares one object between every place a repeated subtree
 * occurs; building a request reads the schemas of such a catalogue and must never change one in
 * place: here every restored schema is deep-frozen, so a write to it throws.
 */
import { describe, expect, it } from 'vitest';
import { buildRequest } from '../../src/executor/build-request.js';
import { restoredAndFrozen, sampleArguments, sandboxCatalogue, SCHOOL } from '../openapi/support/restored-catalogue.js';

describe('restored schemas, shared and deep-frozen', () => {
  it('build requests unchanged', async () => {
    const catalogue = restoredAndFrozen(await sandboxCatalogue());
    let requests = 0;
    for (const operation of catalogue.operations) {
      try {
        buildRequest(operation, sampleArguments(operation), `${SCHOOL}/api`);
        requests += 1;
      } catch (error) {
        // Arguments this crude may be refused; a write to a frozen schema would be a TypeError.
        expect(error).not.toBeInstanceOf(TypeError);
      }
    }
    expect(requests).toBeGreaterThan(catalogue.operations.length / 2);
  });
});
