/**
 * The catalogue cache on disk: stored once per document after the build, read on the next load
 * instead of the document, and ignored (the catalogue built again) when it is not a private file
 * school-mcp wrote for this document, version and options (ST-07, ST-09).
 */
import { chmod, chown, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../src/network/index.js';
import { loadCatalogue, type LoadedCatalogue } from '../../src/openapi/index.js';
import { openDocumentCache } from '../../src/openapi/document-cache.js';
import { SHARED_REFERENCE_KEY } from '../../src/openapi/shared-subtrees.js';

const YAML = [
  'openapi: 3.0.3',
  'info: {title: Cached, version: "1"}',
  'components:',
  '  securitySchemes:',
  '    oauth: {type: oauth2, flows: {authorizationCode: {authorizationUrl: "https://school.example/a", tokenUrl: "https://school.example/t", scopes: {"courses:read": Read courses, "courses:write": Change courses}}}}',
  'paths:',
  '  /courses:',
  '    get: {operationId: list_courses, security: [{oauth: ["courses:read"]}], parameters: [{name: page, in: query, schema: {type: integer}}], responses: {"200": {description: ok, content: {application/json: {schema: {type: array, items: {type: string}}}}}}}',
  '    post: {operationId: create_course, security: [{oauth: ["courses:write"]}], requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {title: {type: string}}}}}}, responses: {"201": {description: created}}}',
  '',
].join('\n');
const SCHOOL = 'https://school.example';
const noNetwork: FetchLike = () => Promise.reject(new Error('no network in this test'));

let directory: string;
let configDirectory: string;
let documentPath: string;
let debug: string[];

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'catalogue-cache-'));
  configDirectory = join(directory, 'config');
  documentPath = join(directory, 'school.yaml');
  await writeFile(documentPath, YAML);
  debug = [];
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const load = (options: { version?: string | undefined; schoolUrl?: string; configDir?: string | undefined } = {}) =>
  loadCatalogue({
    load: {
      schoolUrl: SCHOOL,
      openapi: documentPath,
      fetch: noNetwork,
      ...('configDir' in options
        ? options.configDir === undefined
          ? {}
          : { configDirectory: options.configDir }
        : { configDirectory }),
    },
    catalogue: { schoolUrl: options.schoolUrl ?? SCHOOL },
    version: 'version' in options ? options.version : '1.2.3',
    debug: (message) => debug.push(message),
  });

const cacheFolder = () => join(configDirectory, 'openapi-cache');
const catalogueFiles = async () => (await readdir(cacheFolder())).filter((name) => name.startsWith('catalogue-'));

/** Loads once and stores the catalogue; the path of the file written. */
async function stored(): Promise<string> {
  const first = await load();
  expect(first.store).toBeDefined();
  await first.store?.();
  const [name] = await catalogueFiles();
  if (name === undefined) throw new Error(`no catalogue was stored: ${debug.join('; ')}`);
  return join(cacheFolder(), name);
}

const toolNames = (loaded: LoadedCatalogue) => loaded.catalogue.operations.map((operation) => operation.toolName);

describe('the catalogue cache', () => {
  it('stores the catalogue private after the build, and the next load reads it instead of the document', async () => {
    const path = await stored();
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const second = await load();
    expect(second.store).toBeUndefined();
    expect(debug.at(-1)).toMatch(/^used the cached tool catalogue \(2 operations\)$/);
    expect(toolNames(second)).toEqual(['list_courses', 'create_course']);
    expect(second.catalogue.operations[1]?.body).toMatchObject({ contentType: 'application/json', mode: 'merged' });
    expect(second.catalogue.scopeRoles.isWriteCapable('courses:write')).toBe(true);
    expect(second.loaded).toMatchObject({ source: 'file', location: documentPath });
  });

  it('is another entry for another document text, version or school', async () => {
    await stored();
    await load({ version: '1.2.4' });
    expect(debug.at(-1)).toMatch(/^no cached tool catalogue/);
    await load({ schoolUrl: 'https://other.example' });
    expect(debug.at(-1)).toMatch(/^no cached tool catalogue/);
    await writeFile(documentPath, `${YAML}# edited\n`);
    await load();
    expect(debug.at(-1)).toMatch(/^no cached tool catalogue/);
  });

  it('is not kept without a config directory or a version', async () => {
    expect((await load({ configDir: undefined })).store).toBeUndefined();
    expect((await load({ version: undefined })).store).toBeUndefined();
    await expect(readdir(cacheFolder())).resolves.not.toContainEqual(expect.stringMatching(/^catalogue-/));
  });

  it('ST-09 ignores a catalogue open to others, with a warning, and builds it again', async () => {
    const path = await stored();
    await chmod(path, 0o666);
    const again = await load();
    expect(again.store).toBeDefined();
    expect(again.loaded.warnings.join('\n')).toMatch(/Ignored the cached tool catalogue .*did not write it \(loose\)/);
  });

  it('ST-09 ignores a symbolic link in place of the catalogue, and builds it again', async () => {
    const path = await stored();
    const elsewhere = join(directory, 'elsewhere.json');
    await writeFile(elsewhere, await readFile(path, 'utf8'), { mode: 0o600 });
    await rm(path);
    await symlink(elsewhere, path);
    const again = await load();
    expect(again.store).toBeDefined();
    expect(again.loaded.warnings.join('\n')).toMatch(/Ignored the cached tool catalogue .*\(symlink\)/);
  });

  it.runIf(process.getuid?.() === 0)(
    'ST-09 ignores a catalogue that belongs to another user, and builds it again',
    async () => {
      const path = await stored();
      await chown(path, 4242, 4242);
      const again = await load();
      expect(again.store).toBeDefined();
      expect(again.loaded.warnings.join('\n')).toMatch(/Ignored the cached tool catalogue .*\(foreign owner\)/);
    },
  );

  it('ST-09 ignores a tampered entry and one another version wrote, at debug, and builds the catalogue again', async () => {
    const path = await stored();
    const original = await readFile(path, 'utf8');
    await writeFile(path, original.replace('"list_courses"', '"list_courses",'));
    const tampered = await load();
    expect(tampered.store).toBeDefined();
    expect(debug.at(-1)).toMatch(/^ignored the cached tool catalogue/);
    expect(tampered.loaded.warnings).toEqual([]);

    // Another version's entry has another name; renamed to this version's, its key gives it away.
    await rm(path);
    const other = await load({ version: '0.0.1' });
    await other.store?.();
    const [otherName] = (await catalogueFiles()).filter((name) => join(cacheFolder(), name) !== path);
    await writeFile(path, await readFile(join(cacheFolder(), otherName!), 'utf8'), { mode: 0o600 });
    expect((await load()).store).toBeDefined();
    expect(debug.at(-1)).toMatch(/^ignored the cached tool catalogue/);
  });

  it('ST-09 reads no catalogue over the size it was given', async () => {
    const path = await stored();
    const cache = await openDocumentCache(configDirectory, []);
    const name = path.slice(cacheFolder().length + 1);
    const size = (await stat(path)).size;
    expect(await cache.readCatalogue(name, size)).toBeDefined();
    expect(await cache.readCatalogue(name, size - 1)).toBeUndefined();
  });

  it(`ST-09 stores no catalogue whose schemas use the property name ${SHARED_REFERENCE_KEY}, says so at debug, and builds it on the next start`, async () => {
    await writeFile(
      documentPath,
      YAML.replace(
        'properties: {title: {type: string}}',
        `properties: {title: {type: string}, "${SHARED_REFERENCE_KEY}": {type: string}}`,
      ),
    );
    const first = await load();
    expect(JSON.stringify(first.catalogue.operations[1]?.inputSchema)).toContain(SHARED_REFERENCE_KEY);
    await first.store?.();
    expect(debug.at(-1)).toMatch(
      /property name "\$@", which a cached catalogue keeps for its own use; it is not cached$/,
    );
    await expect(readdir(cacheFolder())).resolves.not.toContainEqual(expect.stringMatching(/^catalogue-/));
    expect((await load()).store).toBeDefined();
    expect(debug.at(-1)).toMatch(/^no cached tool catalogue/);
  });

  it('says at debug, and only there, that a catalogue could not be written', async () => {
    const first = await load();
    const path = await stored();
    await rm(path);
    // A directory where the file goes makes the final rename fail.
    await mkdir(join(path, 'in-the-way'), { recursive: true });
    await expect(first.store?.()).resolves.toBeUndefined();
    expect(debug.at(-1)).toMatch(/^the tool catalogue could not be cached: /);
  });
});
