/**
 * Swagger 2.0 documents, which many platforms still publish, upgraded to OpenAPI 3.0 in memory
 * with swagger2openapi before anything else reads them. The converter is loaded only when such a
 * document arrives: a stdio start on an OpenAPI 3 document never pays for it. It runs with
 * external reference resolution off (its default), so it reads nothing but the object it is
 * given (API-08); the upgraded copy then goes through the same reference checks as any document.
 * @see SECURITY.md API-08
 */
import { createRequire } from 'node:module';
import { requireOptional } from '../optional-packages.js';
import { SchoolMcpError } from '../errors.js';
import { isRecord, type JsonRecord } from './json-value.js';
import type { ApiDocument, OpenApiDocument } from './parse-document.js';

interface ConvertOptions {
  readonly patch: boolean;
  readonly warnOnly: boolean;
  readonly resolve: boolean;
  readonly direct: boolean;
  readonly text: string;
  readonly anchors: boolean;
}

interface Swagger2OpenApi {
  convertObj(swagger: JsonRecord, options: ConvertOptions): Promise<unknown>;
}

export interface UpgradedDocument {
  readonly document: OpenApiDocument;
  /** `Swagger 2.0` when the document was upgraded, for an info line; undefined otherwise. */
  readonly upgradedFrom: string | undefined;
}

function isSwagger2(document: ApiDocument): boolean {
  return !('openapi' in document) && document['swagger'] === '2.0';
}

const requireModule = createRequire(import.meta.url);
let converter: Swagger2OpenApi | undefined;

export async function upgradeToOpenApi3(document: ApiDocument): Promise<UpgradedDocument> {
  if (!isSwagger2(document)) return { document: document as OpenApiDocument, upgradedFrom: undefined };
  converter ??= requireOptional(requireModule, 'swagger2openapi', 'swagger') as Swagger2OpenApi;
  let upgraded: unknown;
  try {
    // `text` is only used in the converter's messages; without it, it would first re-serialise the
    // whole document as YAML, which costs seconds on a large one. A YAML alias parses to one
    // object reached from two places, which the converter refuses unless `anchors` lets it put a
    // copy in the second place. It writes into the object it is given (those copies, and the
    // parameters of `x-ms-parameterized-host`, which it also hands on into `servers`), so it is
    // given a copy of its own.
    upgraded = await converter.convertObj(structuredClone(document), {
      patch: true,
      warnOnly: true,
      resolve: false,
      direct: true,
      text: '-',
      anchors: true,
    });
  } catch (error) {
    throw new SchoolMcpError(
      'OPENAPI_UPGRADE_FAILED',
      `The Swagger 2.0 document could not be upgraded to OpenAPI 3: ${error instanceof Error ? error.message.slice(0, 200) : String(error).slice(0, 200)}`,
      {
        hint: 'Convert it to OpenAPI 3 yourself (for example with swagger2openapi) and pass it with --openapi FILE.',
        cause: error,
      },
    );
  }
  if (!isRecord(upgraded) || typeof upgraded['openapi'] !== 'string') {
    throw new SchoolMcpError(
      'OPENAPI_UPGRADE_FAILED',
      'The Swagger 2.0 document did not upgrade to an OpenAPI 3 object.',
      { hint: 'Pass an OpenAPI 3.0 or 3.1 document with --openapi FILE.' },
    );
  }
  return { document: upgraded as OpenApiDocument, upgradedFrom: 'Swagger 2.0' };
}
