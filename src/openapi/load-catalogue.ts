/**
 * The document read and built into a catalogue, through the catalogue cache when there is one:
 * a start on a document whose catalogue is cached reads it and never parses the document; any
 * other start builds it as without a cache and hands back how to store it, which the caller runs
 * once serving has started.
 * @see SECURITY.md ST-09
 */
import { buildCatalogue, DEFAULT_MAX_OPERATIONS, type CatalogueOptions, type ToolCatalogue } from './catalogue.js';
import { catalogueKey, findCachedCatalogue, storeCatalogue } from './catalogue-cache.js';
import { converterFingerprint } from './converter-fingerprint.js';
import { parseDocumentRead, readDocumentText, type LoadDocumentOptions, type LoadedDocument } from './load-document.js';

export interface LoadCatalogueOptions {
  readonly load: Omit<LoadDocumentOptions, 'keepsCatalogue'>;
  readonly catalogue: CatalogueOptions;
  /** school-mcp's version, part of the cache key; without it no catalogue is cached. */
  readonly version: string | undefined;
  readonly debug: (message: string) => void;
}

export interface LoadedCatalogue {
  /** The document's load, without the document when the catalogue came from the cache. */
  readonly loaded: Omit<LoadedDocument, 'document'>;
  readonly catalogue: ToolCatalogue;
  /** Stores the catalogue in the cache (it never throws); absent when there is nothing to store. */
  readonly store: (() => Promise<void>) | undefined;
}

export async function loadCatalogue({
  load,
  catalogue: catalogueOptions,
  version,
  debug,
}: LoadCatalogueOptions): Promise<LoadedCatalogue> {
  const read = await readDocumentText({ ...load, keepsCatalogue: version !== undefined });
  const { cache } = read;
  const key =
    cache === undefined || version === undefined
      ? undefined
      : catalogueKey({
          text: read.text,
          parsing: read.parsing,
          version: `${version}+${converterFingerprint()}`,
          schoolUrl: catalogueOptions.schoolUrl,
          maxOperations: catalogueOptions.maxOperations ?? DEFAULT_MAX_OPERATIONS,
        });
  const restored =
    cache === undefined || key === undefined
      ? undefined
      : await findCachedCatalogue(cache, key, {
          debug,
          schoolUrl: catalogueOptions.schoolUrl,
          ...(catalogueOptions.onSchemaWarning === undefined
            ? {}
            : { onSchemaWarning: catalogueOptions.onSchemaWarning }),
        });
  if (restored !== undefined) {
    const kept = await read.keep();
    const loaded = {
      source: read.source,
      location: read.location,
      warnings: [...read.warnings, ...restored.documentWarnings, ...kept],
    };
    return { loaded, catalogue: restored.catalogue, store: undefined };
  }
  const loaded = await parseDocumentRead(read);
  const catalogue = await buildCatalogue(loaded.document, catalogueOptions);
  const store =
    cache === undefined || key === undefined
      ? undefined
      : () => storeCatalogue({ cache, key, catalogue, documentWarnings: loaded.parseWarnings, debug });
  return { loaded, catalogue, store };
}
