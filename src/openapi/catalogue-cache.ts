/**
 * The built catalogue, kept in the OpenAPI cache folder beside the document and its parsed copy,
 * so that a restart on the same document reads it instead of parsing, upgrading, checking and
 * converting the document: on the GitHub and Kubernetes documents those were most of the start
 * (tools/bench/findings.md). An entry is keyed by the SHA-256 of the document's text, school-mcp's
 * version and every option that changes the catalogue, so it is never stale: another document,
 * version or option is another file. The entry is read through the document cache's checks (a
 * file school-mcp did not write is ignored, ST-07), then decoded strictly (`catalogue-decoder.ts`);
 * anything else means the catalogue is built as without a cache.
 * @see SECURITY.md ST-07, ST-09, ST-15
 */
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MAX_LISTED_SCHEMA_BYTES } from './catalogue-budget.js';
import { scopeRoleSourcesOf, type ToolCatalogue } from './catalogue.js';
import { decodeCatalogue, type RestoredCatalogue } from './catalogue-decoder.js';
import { catalogueEncoder } from './catalogue-encoder.js';
import { CATALOGUE_FORMAT } from './catalogue-record.js';
import type { DocumentCache } from './document-cache.js';
import { convertQuietly } from './operations.js';
import type { ParseDocumentOptions } from './parse-document.js';
import { isApiBaseOf } from './server-base.js';
import { SHARED_REFERENCE_KEY } from './shared-subtrees.js';

/**
 * A stored catalogue holds every operation's schemas, each repeated subtree once: a few times
 * what a whole tool list may take. A catalogue larger than that is built on each start, as
 * without a cache.
 */
const MAX_CATALOGUE_BYTES = 4 * MAX_LISTED_SCHEMA_BYTES;

/** Converting and writing in the background gives the event loop back this often, so requests wait at most about this long. */
const SLICE_MS = 8;

/** Everything that changes the catalogue built from a document. */
export interface CatalogueKeyParts {
  readonly text: string;
  /** Its source name appears in warnings; its format decides how the text is read. */
  readonly parsing: ParseDocumentOptions;
  readonly version: string;
  readonly schoolUrl: string | undefined;
  readonly maxOperations: number;
}

export function catalogueKey(parts: CatalogueKeyParts): string {
  const options = JSON.stringify([
    CATALOGUE_FORMAT,
    parts.version,
    parts.schoolUrl ?? null,
    parts.maxOperations,
    parts.parsing.source,
    parts.parsing.format ?? null,
  ]);
  return createHash('sha256').update(options).update('\0').update(parts.text).digest('hex');
}

function catalogueFileName(key: string): string {
  return `catalogue-${key.slice(0, 32)}.json`;
}

export interface CatalogueCacheOptions {
  /** The school the catalogue is for; a cached one whose API base is not on its origin is ignored. */
  readonly schoolUrl: string | undefined;
  /** Receives the stored schema warnings of a tool when it is first listed, described or called. */
  readonly onSchemaWarning?: (message: string) => void;
  /** One line for each thing the cache did or could not do; none of it is an error. */
  readonly debug: (message: string) => void;
}

/** The catalogue stored for `key`, or undefined (none, not school-mcp's, or not exactly what it writes). */
export async function findCachedCatalogue(
  cache: DocumentCache,
  key: string,
  options: CatalogueCacheOptions,
): Promise<RestoredCatalogue | undefined> {
  const text = await cache.readCatalogue(catalogueFileName(key), MAX_CATALOGUE_BYTES).catch(() => undefined);
  if (text === undefined) {
    options.debug('no cached tool catalogue for this document; building it');
    return undefined;
  }
  const restored = decodeCatalogue(text, key, options.onSchemaWarning);
  if (restored !== undefined && !isApiBaseOf(restored.catalogue.apiBase, options.schoolUrl)) {
    const shown = JSON.stringify(String(restored.catalogue.apiBase?.baseUrl).slice(0, 200));
    options.debug(
      `ignored the cached tool catalogue: its API base ${shown} is not on the school's origin, where the sign-in token goes; building it`,
    );
    return undefined;
  }
  options.debug(
    restored === undefined
      ? 'ignored the cached tool catalogue: it is not one this version of school-mcp wrote for this document; building it'
      : `used the cached tool catalogue (${restored.catalogue.operations.length} operations)`,
  );
  return restored;
}

export interface StoreCatalogueInput {
  readonly cache: DocumentCache;
  readonly key: string;
  readonly catalogue: ToolCatalogue;
  readonly documentWarnings: readonly string[];
  readonly debug: (message: string) => void;
}

/**
 * Converts every operation not converted yet, without reporting what that finds (a tool's
 * warnings are reported when it is first read), and stores the catalogue. Runs in slices,
 * yielding between them, so that it can run while the server answers. Never throws.
 */
export async function storeCatalogue({
  cache,
  key,
  catalogue,
  documentWarnings,
  debug,
}: StoreCatalogueInput): Promise<void> {
  try {
    // The caller's start finishes first.
    await nextTurn();
    const roleSources = scopeRoleSourcesOf(catalogue);
    if (roleSources === undefined) return;
    const encoder = catalogueEncoder({ key, catalogue, roleSources, documentWarnings }, MAX_CATALOGUE_BYTES);
    let sliceStart = performance.now();
    const yieldWhenSliceIsOver = async () => {
      if (performance.now() - sliceStart <= SLICE_MS) return;
      await nextTurn();
      sliceStart = performance.now();
    };
    for (const operation of catalogue.operations) {
      const conversion = convertQuietly(operation);
      if (conversion === undefined) return;
      if (!encoder.add(operation, conversion)) {
        debug(
          `the tool catalogue's schemas use the property name ${JSON.stringify(SHARED_REFERENCE_KEY)}, which a cached catalogue keeps for its own use; it is not cached`,
        );
        return;
      }
      await yieldWhenSliceIsOver();
    }
    const writing = encoder.write();
    let step = writing.next();
    while (step.done !== true) {
      await yieldWhenSliceIsOver();
      step = writing.next();
    }
    const text = step.value;
    if (text === undefined) {
      debug(
        `the tool catalogue is over the ${MAX_CATALOGUE_BYTES / (1024 * 1024)} MiB a cached one may take; it is not cached`,
      );
      return;
    }
    await nextTurn();
    await cache.writeCatalogue(catalogueFileName(key), text);
    debug(`cached the tool catalogue (${catalogue.operations.length} operations, ${Buffer.byteLength(text)} bytes)`);
  } catch (error) {
    debug(
      `the tool catalogue could not be cached: ${error instanceof Error ? error.message.slice(0, 200) : String(error).slice(0, 200)}`,
    );
  }
}
