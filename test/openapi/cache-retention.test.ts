/** The OpenAPI cache keeps the newest few catalogues and parsed copies, and never touches a file it did not write (ST-07). */
import { chmod, mkdtemp, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KEPT_BUILDS_PER_KIND, buildsToForget, type CacheFileFacts } from '../../src/openapi/cache-retention.js';
import { openDocumentCache } from '../../src/openapi/document-cache.js';

const file = (name: string, modifiedMs: number, ours = true): CacheFileFacts => ({ name, modifiedMs, ours });

describe('which builds are forgotten', () => {
  it('keeps the one just written and the newest others of its kind, up to the number kept', () => {
    const files = [
      file('catalogue-a.json', 1),
      file('catalogue-b.json', 4),
      file('catalogue-c.json', 3),
      file('catalogue-d.json', 2),
      file('catalogue-new.json', 0),
    ];
    expect(buildsToForget(files, 'catalogue-new.json', 3)).toEqual(['catalogue-d.json', 'catalogue-a.json']);
    expect(buildsToForget(files, 'catalogue-new.json', 5)).toEqual([]);
    expect(buildsToForget(files, 'catalogue-new.json', 1)).toEqual([
      'catalogue-b.json',
      'catalogue-c.json',
      'catalogue-d.json',
      'catalogue-a.json',
    ]);
  });

  it('counts only files of the kind written, and never the school documents or other names', () => {
    const files = [
      file('parsed-1.json', 1),
      file('parsed-2.json', 2),
      file('catalogue-1.json', 1),
      file('catalogue-2.json', 2),
      file('openapi-1.json', 0),
      file('catalogue-3.json.1234.tmp', 0),
      file('notes.txt', 0),
    ];
    expect(buildsToForget(files, 'parsed-3.json', 2)).toEqual(['parsed-1.json']);
    expect(buildsToForget(files, 'catalogue-3.json', 2)).toEqual(['catalogue-1.json']);
    expect(buildsToForget(files, 'openapi-2.json', 1)).toEqual([]);
  });

  it('ST-07 neither counts nor removes a file school-mcp did not write', () => {
    const files = [
      file('catalogue-planted.json', 9, false),
      file('catalogue-old.json', 1),
      file('catalogue-mid.json', 2),
    ];
    expect(buildsToForget(files, 'catalogue-new.json', 2)).toEqual(['catalogue-old.json']);
  });
});

describe('the cache on disk', () => {
  let directory: string;
  let cacheFolder: string;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'cache-retention-'));
    cacheFolder = join(directory, 'openapi-cache');
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  // Windows has no owner or mode bits to tell a planted file by (file-verdict.ts).
  it.skipIf(process.platform === 'win32')(
    `ST-07 keeps ${KEPT_BUILDS_PER_KIND} catalogues, the newest, and leaves parsed copies, documents and planted files alone`,
    async () => {
      const cache = await openDocumentCache(directory, []);
      const old = Date.now() / 1000 - 10_000;
      for (let index = 0; index < 12; index++) {
        await cache.writeCatalogue(`catalogue-${String(index).padStart(2, '0')}.json`, '{}');
        await utimes(join(cacheFolder, `catalogue-${String(index).padStart(2, '0')}.json`), old + index, old + index);
      }
      await cache.writeParsedCopy('parsed-a.json', '{}');
      await cache.write({
        url: 'https://school.example/openapi.json',
        etag: undefined,
        lastModified: undefined,
        storedAt: new Date(0).toISOString(),
        body: '{}',
      });
      await writeFile(join(cacheFolder, 'catalogue-open.json'), '{}', { mode: 0o644 });
      await chmod(join(cacheFolder, 'catalogue-open.json'), 0o644);
      await utimes(join(cacheFolder, 'catalogue-open.json'), old - 1, old - 1);
      await symlink(join(directory, 'elsewhere.json'), join(cacheFolder, 'catalogue-link.json'));

      await cache.writeCatalogue('catalogue-new.json', '{}');

      const left = (await readdir(cacheFolder)).sort();
      const catalogues = left.filter((name) => /^catalogue-\d+\.json$/.test(name));
      expect(catalogues).toEqual([
        'catalogue-05.json',
        'catalogue-06.json',
        'catalogue-07.json',
        'catalogue-08.json',
        'catalogue-09.json',
        'catalogue-10.json',
        'catalogue-11.json',
      ]);
      expect(left).toEqual(
        expect.arrayContaining(['catalogue-new.json', 'catalogue-open.json', 'catalogue-link.json', 'parsed-a.json']),
      );
      expect(left.filter((name) => name.startsWith('openapi-'))).toHaveLength(1);
    },
  );

  it('ST-07 keeps a catalogue written long ago that starts still read, and forgets one nothing reads', async () => {
    const cache = await openDocumentCache(directory, []);
    const old = Date.now() / 1000 - 10_000;
    // The one that is read was written first.
    for (const [name, at] of [
      ['catalogue-read.json', old - 1],
      ['catalogue-unread.json', old],
    ] as const) {
      await cache.writeCatalogue(name, '{}');
      await utimes(join(cacheFolder, name), at, at);
    }
    expect(await cache.readCatalogue('catalogue-read.json', 1024)).toBe('{}');
    for (let index = 0; index < KEPT_BUILDS_PER_KIND - 1; index++)
      await cache.writeCatalogue(`catalogue-new-${index}.json`, '{}');
    const left = await readdir(cacheFolder);
    expect(left).toContain('catalogue-read.json');
    expect(left).not.toContain('catalogue-unread.json');
  });
});
