/**
 * How many built files the OpenAPI cache keeps. A parsed copy is named by its YAML text and a
 * catalogue by the document's text, school-mcp's version and build, and the options; none is ever
 * stale, so none is ever replaced, and each new document text or upgrade adds one more (1.5 MB for
 * the Kubernetes document's catalogue). When one is written, those of its kind beyond the few
 * most recently written or read (the cache marks a file it reads) are forgotten: a start that
 * wanted one of them builds it again, which is what a start without a cache does. Files
 * school-mcp did not write are neither counted nor removed.
 * Pure; the cache (`document-cache.ts`) does the I/O.
 * @see SECURITY.md ST-07
 */

/** Catalogues, and parsed copies, kept each: several schools, options and document versions. */
export const KEPT_BUILDS_PER_KIND = 8;

const BUILD_KINDS = ['catalogue-', 'parsed-'] as const;

export interface CacheFileFacts {
  readonly name: string;
  /** When it was last written or read. */
  readonly modifiedMs: number;
  /** A plain file of the user's own, closed to others: one school-mcp wrote. */
  readonly ours: boolean;
}

/** The names to remove after `written` was stored: those of its kind past the `keep` last used, never `written` itself. */
export function buildsToForget(
  files: readonly CacheFileFacts[],
  written: string,
  keep = KEPT_BUILDS_PER_KIND,
): string[] {
  const kind = buildKindOf(written);
  if (kind === undefined) return [];
  const others = files
    .filter((file) => file.ours && file.name !== written && buildKindOf(file.name) === kind)
    .sort((a, b) => b.modifiedMs - a.modifiedMs || (a.name < b.name ? -1 : 1));
  return others.slice(Math.max(0, keep - 1)).map((file) => file.name);
}

function buildKindOf(name: string): string | undefined {
  if (!name.endsWith('.json')) return undefined;
  return BUILD_KINDS.find((prefix) => name.startsWith(prefix));
}
