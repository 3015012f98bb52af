/** The JSON copy of a YAML document in the OpenAPI cache: what is stored, when it is read, and ST-07 for it. */
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../src/network/index.js';
import { loadDocument } from '../../src/openapi/index.js';
import { parseDocumentText } from '../../src/openapi/parse-document.js';
import { parsedCopyName, parsedCopyText } from '../../src/openapi/parsed-copy.js';

const YAML =
  'openapi: 3.0.3\ninfo: {title: From YAML, version: "1"}\npaths:\n  /members:\n    get: {operationId: list_members, responses: {"200": {description: ok}}}\n';
const noNetwork: FetchLike = () => Promise.reject(new Error('no network in this test'));

let directory: string;
let configDirectory: string;
let documentPath: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'parsed-copy-'));
  configDirectory = join(directory, 'config');
  documentPath = join(directory, 'school.yaml');
  await writeFile(documentPath, YAML);
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const load = () =>
  loadDocument({ schoolUrl: 'https://school.example', openapi: documentPath, fetch: noNetwork, configDirectory });
const copyPath = (text: string) => join(configDirectory, 'openapi-cache', parsedCopyName(text));

describe('the JSON copy of a parsed YAML document (pure)', () => {
  it('is the document as JSON when JSON gives the same document back', () => {
    const parsed = parseDocumentText(YAML, { source: 'test' });
    expect(JSON.parse(parsedCopyText(parsed)!)).toEqual(parsed.document);
  });

  it('is not kept for a document with YAML warnings or numbers JSON cannot write', () => {
    const document = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} };
    expect(parsedCopyText({ document, warnings: ['YAML in test: something'] })).toBeUndefined();
    for (const number of [Infinity, NaN, -0])
      expect(
        parsedCopyText({ document: { ...document, 'x-number': [{ value: number }] }, warnings: [] }),
        String(number),
      ).toBeUndefined();
  });

  it('is named by the whole text, so that any change to the document is another copy', () => {
    expect(parsedCopyName(YAML)).toBe(parsedCopyName(YAML));
    expect(parsedCopyName(`${YAML} `)).not.toBe(parsedCopyName(YAML));
    expect(parsedCopyName(YAML)).toMatch(/^parsed-[0-9a-f]{32}\.json$/);
  });
});

describe('loading a YAML file with a config directory', () => {
  it('stores the JSON copy, private, and reads it on the next load instead of the YAML', async () => {
    const first = await load();
    expect(first.document['info']).toMatchObject({ title: 'From YAML' });
    const copy = copyPath(YAML);
    expect((await stat(copy)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(copy, 'utf8'))).toEqual(first.document);
    // Rewritten in place (still school-mcp's, still 0600): the next load shows the copy was read.
    await writeFile(copy, JSON.stringify({ ...first.document, info: { title: 'From the copy', version: '1' } }));
    expect((await load()).document['info']).toMatchObject({ title: 'From the copy' });
  });

  it('parses the YAML again when the copy fails the checks any JSON document gets', async () => {
    await load();
    await writeFile(copyPath(YAML), '[1, 2, 3]');
    expect((await load()).document['info']).toMatchObject({ title: 'From YAML' });
  });

  it('keeps no copy of a JSON document, which JSON.parse reads as fast as its copy', async () => {
    const jsonPath = join(directory, 'school.json');
    await writeFile(jsonPath, JSON.stringify({ openapi: '3.1.0', info: { title: 'JSON', version: '1' }, paths: {} }));
    await loadDocument({ schoolUrl: 'https://school.example', openapi: jsonPath, fetch: noNetwork, configDirectory });
    await expect(readdir(join(configDirectory, 'openapi-cache'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('ST-07 ignores a copy open to others, and parses the YAML instead', async () => {
    await load();
    const copy = copyPath(YAML);
    await writeFile(copy, JSON.stringify({ openapi: '3.0.3', info: { title: 'Planted', version: '1' }, paths: {} }));
    await chmod(copy, 0o666);
    const loaded = await load();
    expect(loaded.document['info']).toMatchObject({ title: 'From YAML' });
    expect(loaded.warnings.join('\n')).toMatch(/did not write it/);
  });
});
