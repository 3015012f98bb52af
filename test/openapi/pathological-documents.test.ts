/**
 * Shapes that once hung the generator or might: each document is built in a worker under a
 * deadline (support/build-in-worker.ts), so a loop fails the test instead of the suite.
 */
import { describe, expect, it } from 'vitest';
import { documentWith } from './fixtures/minimal-document.js';
import { BUILD_DEADLINE_MS, buildInWorker } from './support/build-in-worker.js';

const ARGUMENT_KEY = /^[a-zA-Z0-9_.-]{1,64}$/;
const ok = { '200': { description: 'OK' } };

/** Canvas-style form names: the first 64 characters after sanitising are the same for all of them. */
const SHARED = 'quiz[quiz_settings][result_view_settings][display_item_response_';
const bracketed = (count: number) => Array.from({ length: count }, (_, index) => `${SHARED}qualifier_${index}]`);

function argumentsOf(operation: { inputSchema: Record<string, unknown> }): string[] {
  return Object.keys(operation.inputSchema['properties'] as object);
}

describe('pathological documents, under a watchdog', () => {
  it('gives distinct arguments to parameters whose names agree on their first 64 characters', async () => {
    const names = bracketed(2);
    const document = documentWith({
      '/quizzes/{id}': {
        patch: {
          operationId: 'updateQuiz',
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
            ...names.map((name) => ({ name, in: 'query', schema: { type: 'boolean' } })),
          ],
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
                },
              },
            },
          },
          responses: ok,
        },
      },
    });
    const catalogue = await buildInWorker({ document }, BUILD_DEADLINE_MS);
    const [operation] = catalogue.operations;
    expect(operation?.toolName).toBe('update_quiz');
    const args = operation ? argumentsOf(operation) : [];
    expect(args).toHaveLength(5);
    expect(new Set(args).size).toBe(5);
    for (const argument of args) expect(argument).toMatch(ARGUMENT_KEY);
    expect(
      operation?.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
    ).toEqual(names);
    expect(Object.values(operation?.body?.propertyArguments ?? {})).toEqual(names);
  }, 60_000);

  it('API-11 hands out colliding argument names to as many of 2,000 parameters as an operation may take, without slowing to a crawl', async () => {
    const names = bracketed(2_000);
    const document = documentWith({
      '/quizzes': {
        get: {
          operationId: 'listQuizzes',
          parameters: names.map((name) => ({ name, in: 'query', schema: { type: 'string' } })),
          responses: ok,
        },
      },
    });
    const catalogue = await buildInWorker({ document }, BUILD_DEADLINE_MS);
    const args = catalogue.operations[0] ? argumentsOf(catalogue.operations[0]) : [];
    // An operation takes at most 128 parameters (API-11); each of those gets an argument of its own.
    expect(new Set(args).size).toBe(128);
    expect(catalogue.warnings.some((warning) => warning.includes('128'))).toBe(true);
    for (const argument of args) expect(argument).toMatch(ARGUMENT_KEY);
  }, 60_000);

  it('survives names that sanitise to nothing, reused operationIds, endless alternatives and wrong types, costing at most the odd tool', async () => {
    const paths: Record<string, unknown> = {
      '/symbols': {
        get: {
          operationId: 'same',
          parameters: Array.from({ length: 50 }, (_, index) => ({ name: '[]'.repeat(index + 1), in: 'query' })),
          responses: ok,
        },
      },
      '/alternatives': {
        get: {
          operationId: 'same',
          security: Array.from({ length: 2_000 }, (_, index) => ({ school: [`scope${index}:read`] })),
          responses: ok,
        },
      },
      '/wrong-types': {
        post: { operationId: 'same', parameters: 'not a list', requestBody: { content: 'nothing' }, responses: [] },
      },
      '/deep/{a}/{b}/{c}/{d}/{e}/{f}/{g}/{h}': { delete: { operationId: 'same', responses: ok } },
    };
    for (let index = 0; index < 2_000; index += 1)
      paths[`/v1/items${index}/{id}`] = { get: { operationId: 'same', responses: ok } };
    const document = documentWith(paths, {
      components: { securitySchemes: { school: { type: 'oauth2', flows: {} } } },
    });
    const catalogue = await buildInWorker({ document }, BUILD_DEADLINE_MS);
    const names = catalogue.operations.map((operation) => operation.toolName);
    expect(catalogue.operations.length).toBeGreaterThanOrEqual(2_003);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((name) => name === 'same')).toHaveLength(1);
    expect(names).toContain('get_items1999_by_id');
    expect(catalogue.warnings.some((warning) => warning.includes('"same"'))).toBe(true);
  }, 60_000);
});
