/**
 * The last good copy of a school's OpenAPI document with its validators (`ETag`,
 * `Last-Modified`), one JSON file per document URL in the `openapi-cache` folder of the config
 * directory. It makes a restart a conditional GET (RFC 9110 §13.1.1, §13.1.3) and lets the bridge
 * start while the school is briefly unreachable.
 *
 * The copy becomes the tool list, so it gets the token store's care: both directories are
 * prepared like the token store's (0700, the user's own, never a symbolic link), entries are
 * written through an unpredictable temporary name opened with `O_EXCL`, and an entry school-mcp
 * did not write is ignored. "Did not write" is judged by ownership and mode, not by an HMAC:
 * every entry is written 0600 by the user running school-mcp, so a file that belongs to anyone
 * else, is open to others or is a link was planted. A key kept in the same directory would add
 * nothing: whoever can replace an entry as the user can read the key too. The built catalogue
 * (`catalogue-cache.ts`) is kept here too, with the same care.
 * @see SECURITY.md ST-07, ST-09
 */
import { createHash } from 'node:crypto';
import { lutimes, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import {
  inspectPrivateFile,
  preparePrivateDirectory,
  readWithoutFollowing,
  writePrivateFileAtomically,
} from '../private-files/index.js';
import { SchoolMcpError } from '../errors.js';
import { buildsToForget, type CacheFileFacts } from './cache-retention.js';
import { isRecord } from './json-value.js';
import { MAX_DOCUMENT_BYTES } from './parse-document.js';

const CACHE_FOLDER = 'openapi-cache';
/** A document of the largest size, JSON-escaped, plus the validators. */
const MAX_ENTRY_BYTES = MAX_DOCUMENT_BYTES * 2 + 64 * 1024;

export interface CachedDocument {
  readonly url: string;
  readonly etag: string | undefined;
  readonly lastModified: string | undefined;
  /** ISO 8601 time the copy was fetched. */
  readonly storedAt: string;
  readonly body: string;
}

export interface DocumentCache {
  /** The entry for `url`, or undefined (none, unusable, or not written by school-mcp: see `warnings`). */
  read(url: string): Promise<CachedDocument | undefined>;
  write(entry: CachedDocument): Promise<void>;
  /** The JSON copy of a YAML document stored under `name` (`parsed-copy.ts`), with the same checks as `read`. */
  readParsedCopy(name: string): Promise<string | undefined>;
  writeParsedCopy(name: string, json: string): Promise<void>;
  /** The catalogue stored under `name` (`catalogue-cache.ts`), with the same checks; undefined too when over `maxBytes`. */
  readCatalogue(name: string, maxBytes: number): Promise<string | undefined>;
  writeCatalogue(name: string, text: string): Promise<void>;
}

export function cacheFileName(url: string): string {
  return `openapi-${createHash('sha256').update(url).digest('hex').slice(0, 16)}.json`;
}

/** Pure: a cache file's text as an entry for `url`, or undefined when it is unusable. */
function parseCacheEntry(text: string, url: string): CachedDocument | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (
    !isRecord(value) ||
    value['url'] !== url ||
    typeof value['body'] !== 'string' ||
    typeof value['storedAt'] !== 'string'
  )
    return undefined;
  return {
    url,
    etag: typeof value['etag'] === 'string' ? value['etag'] : undefined,
    lastModified: typeof value['lastModified'] === 'string' ? value['lastModified'] : undefined,
    storedAt: value['storedAt'],
    body: value['body'],
  };
}

const unsafeCache = (message: string) =>
  new SchoolMcpError('OPENAPI_CACHE_UNSAFE', message, {
    hint: 'Fix the ownership of the school-mcp config directory, or point SCHOOL_MCP_CONFIG_DIR at a private directory.',
  });

/**
 * The cache under `configDirectory`, both directories prepared first; `OPENAPI_CACHE_UNSAFE` when
 * either is a link, not a directory, or someone else's. Warnings (a loosened directory tightened,
 * an entry ignored) go to `warnings`.
 */
export async function openDocumentCache(configDirectory: string, warnings: string[]): Promise<DocumentCache> {
  const directory = join(configDirectory, CACHE_FOLDER);
  const logger = {
    warn: (message: string, fields: Record<string, unknown> = {}) =>
      warnings.push(
        `The ${message} (${Object.entries(fields)
          .map(([name, value]) => `${name} ${String(value)}`)
          .join(', ')}).`,
      ),
  };
  await preparePrivateDirectory(configDirectory, { logger, what: 'config directory', unsafe: unsafeCache });
  await preparePrivateDirectory(directory, { logger, what: 'OpenAPI cache directory', unsafe: unsafeCache });
  /** The text of a file school-mcp wrote in the cache folder, or undefined. */
  const readOwn = async (name: string, maxBytes: number, what = 'OpenAPI document'): Promise<string | undefined> => {
    const path = join(directory, name);
    const inspected = await inspectPrivateFile(path).catch(() => undefined);
    if (inspected === undefined) return undefined;
    if (inspected.verdict.kind !== 'private') {
      warnings.push(
        `Ignored the cached ${what} ${path}: school-mcp did not write it (${inspected.verdict.kind.replace('-', ' ')}).`,
      );
      return undefined;
    }
    if (inspected.info.size > maxBytes) return undefined;
    const text = await readWithoutFollowing(path).catch(() => undefined);
    // Marks the entry as used, so that keeping the newest builds keeps the ones in use
    // (`cache-retention.ts`); `lutimes` never reaches through a link put there meanwhile.
    if (text !== undefined) {
      const now = new Date();
      await lutimes(path, now, now).catch(() => undefined);
    }
    return text;
  };
  return {
    async read(url) {
      const text = await readOwn(cacheFileName(url), MAX_ENTRY_BYTES);
      return text === undefined ? undefined : parseCacheEntry(text, url);
    },
    async write(entry) {
      const path = join(directory, cacheFileName(entry.url));
      await writePrivateFileAtomically(path, JSON.stringify(entry), { unsafe: unsafeCache });
    },
    readParsedCopy: (name) => readOwn(name, MAX_DOCUMENT_BYTES),
    async writeParsedCopy(name, json) {
      await writePrivateFileAtomically(join(directory, name), json, { unsafe: unsafeCache });
      await forgetOlderBuilds(directory, name);
    },
    readCatalogue: (name, maxBytes) => readOwn(name, maxBytes, 'tool catalogue'),
    async writeCatalogue(name, text) {
      await writePrivateFileAtomically(join(directory, name), text, { unsafe: unsafeCache });
      await forgetOlderBuilds(directory, name);
    },
  };
}

/** Removes the builds `buildsToForget` names; another process may have removed one already. */
async function forgetOlderBuilds(directory: string, written: string): Promise<void> {
  const names = await readdir(directory).catch(() => []);
  const files: CacheFileFacts[] = [];
  for (const name of names) {
    const inspected = await inspectPrivateFile(join(directory, name)).catch(() => undefined);
    if (inspected !== undefined)
      files.push({ name, modifiedMs: inspected.info.mtimeMs, ours: inspected.verdict.kind === 'private' });
  }
  for (const name of buildsToForget(files, written)) await unlink(join(directory, name)).catch(() => undefined);
}
