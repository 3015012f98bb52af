/**
 * Local `$ref` resolution with `@apidevtools/json-schema-ref-parser`, on a checked copy of the
 * document (external references were refused before the library runs, and its file and HTTP
 * resolvers are off as well). Circular references are left in place (`circular: 'ignore'`); the
 * schema converter inlines them to a bounded depth, so no object cycle is ever produced.
 * Note that the library leaves every reference to a schema that takes part in a cycle unresolved,
 * not only the back edge: `schema-converter.ts` resolves those through `json-pointer.ts`.
 * @see ../shared/research/libraries.md §4.3, ../shared/research/security.md API-08
 */
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { copyCheckingReferences } from './check-references.js';
import { openApiError } from './openapi-error.js';
import type { OpenApiDocument } from './parse-document.js';

export interface DereferencedDocument {
  readonly document: OpenApiDocument;
  readonly warnings: readonly string[];
}

/** Literal data (examples, defaults, enums, extensions) is never searched for references. */
const LITERAL_PATH = /\/(?:example|default|enum|const|x-[^/]*)(?:\/|$)/;

const DEREFERENCE_TIMEOUT_MS = 20_000;

export async function dereferenceDocument(document: OpenApiDocument): Promise<DereferencedDocument> {
  const { copy, warnings } = copyCheckingReferences(document);
  try {
    await $RefParser.dereference(copy, {
      resolve: { external: false, file: false, http: false },
      dereference: {
        circular: 'ignore',
        // OpenAPI 3.1: a `description` or `summary` beside a `$ref` overrides the target's.
        preservedProperties: ['description', 'summary'],
        excludedPathMatcher: (path: string) => LITERAL_PATH.test(path),
      },
      mutateInputSchema: true,
      timeoutMs: DEREFERENCE_TIMEOUT_MS,
    });
  } catch (error) {
    throw openApiError(
      'OPENAPI_DEREFERENCE_FAILED',
      `The OpenAPI document's references could not be resolved: ${error instanceof Error ? error.message : String(error)}`,
      'Check the "$ref" values of the document; each must point to an existing "#/..." location.',
      error,
    );
  }
  return { document: copy as OpenApiDocument, warnings };
}
