/**
 * The last good copy of a school's OpenAPI document with its validators (`ETag`,
 * `Last-Modified`), one JSON file per document URL in a directory the caller chooses. It makes a
 * restart a conditional GET (RFC 9110 §13.1.1, §13.1.3) and lets the bridge start while the
 * school is briefly unreachable. Writes are atomic (temporary file, then rename).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecord } from './json-value.js';

export interface CachedDocument {
  readonly url: string;
  readonly etag: string | undefined;
  readonly lastModified: string | undefined;
  /** ISO 8601 time the copy was fetched. */
  readonly storedAt: string;
  readonly body: string;
}

export function cacheFileName(url: string): string {
  return `openapi-${createHash('sha256').update(url).digest('hex').slice(0, 16)}.json`;
}

/** Pure: a cache file's text as an entry for `url`, or undefined when it is unusable. */
export function parseCacheEntry(text: string, url: string): CachedDocument | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value['url'] !== url || typeof value['body'] !== 'string' || typeof value['storedAt'] !== 'string') return undefined;
  return {
    url,
    etag: typeof value['etag'] === 'string' ? value['etag'] : undefined,
    lastModified: typeof value['lastModified'] === 'string' ? value['lastModified'] : undefined,
    storedAt: value['storedAt'],
    body: value['body'],
  };
}

export async function readCachedDocument(directory: string, url: string): Promise<CachedDocument | undefined> {
  try {
    return parseCacheEntry(await readFile(join(directory, cacheFileName(url)), 'utf8'), url);
  } catch {
    return undefined;
  }
}

export async function writeCachedDocument(directory: string, entry: CachedDocument): Promise<void> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const target = join(directory, cacheFileName(entry.url));
  const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, JSON.stringify(entry), { mode: 0o600 });
  await rename(temporary, target);
}
