/** Documents wide rather than deep: one mapping or list of hundreds of thousands of entries loads like any other. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../src/network/index.js';
import { buildCatalogue, loadCatalogue, loadDocument } from '../../src/openapi/index.js';
import { parsedCopyText } from '../../src/openapi/parsed-copy.js';

const KEYS = 250_000;
const noNetwork: FetchLike = () => Promise.reject(new Error('no network in this test'));

/** A YAML document under the 5 MiB cap whose `x-wide` mapping has `KEYS` keys. */
function wideYaml(): string {
  const lines = [
    'openapi: 3.0.3',
    'info: {title: Wide, version: "1"}',
    'paths:',
    '  /members:',
    '    get: {operationId: list_members, responses: {"200": {description: ok}}}',
    'x-wide:',
  ];
  for (let index = 0; index < KEYS; index += 1) lines.push(`  k${index}: ${index}`);
  return `${lines.join('\n')}\n`;
}

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'wide-documents-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('wide documents', () => {
  it('API-18 loads a YAML document whose one mapping has 250,000 keys, and keeps its JSON copy', async () => {
    const text = wideYaml();
    expect(Buffer.byteLength(text)).toBeLessThan(5 * 1024 * 1024);
    const documentPath = join(directory, 'wide.yaml');
    await writeFile(documentPath, text);
    const load = {
      schoolUrl: 'https://school.example',
      openapi: documentPath,
      fetch: noNetwork,
      configDirectory: join(directory, 'config'),
    };
    const loaded = await loadDocument(load);
    expect(Object.keys(loaded.document['x-wide'] as object)).toHaveLength(KEYS);
    const catalogue = await buildCatalogue(loaded.document);
    expect(catalogue.operations.map((operation) => operation.toolName)).toEqual(['list_members']);
    // The start the stdio server makes: built and stored, then restored from the cache.
    const start = () =>
      loadCatalogue({
        load,
        catalogue: { schoolUrl: 'https://school.example' },
        version: '1.0.0',
        debug: () => undefined,
      });
    const built = await start();
    expect(built.store).toBeDefined();
    await built.store!();
    const restored = await start();
    expect(restored.store).toBeUndefined();
    expect(restored.catalogue.operations.map((operation) => operation.toolName)).toEqual(['list_members']);
  }, 60_000);

  it('API-18 writes the JSON copy of a document with a list of 250,000 items', () => {
    const document = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {},
      'x-long': Array.from({ length: KEYS }, (_, index) => index),
    };
    expect(JSON.parse(parsedCopyText({ document, warnings: [] })!)).toEqual(document);
  });
});
