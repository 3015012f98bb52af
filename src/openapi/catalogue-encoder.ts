/**
 * Writes the catalogue record (`catalogue-record.ts`): the catalogue's context, then each repeated
 * schema subtree once (`shared-subtrees.ts`), then the operations, one step at a time and never
 * past the size the cache allows. Pure: the cache (`catalogue-cache.ts`) writes the text.
 * @see SECURITY.md ST-09
 */
import type { ToolCatalogue } from './catalogue.js';
import { CATALOGUE_FORMAT, SCHEMA_FIELDS, type SchemaField } from './catalogue-record.js';
import type { JsonRecord } from './json-value.js';
import type { Operation } from './operation.js';
import type { ConvertedSchemas } from './operations.js';
import type { ScopedOperation } from './scope-roles.js';
import { subtreeSharing, type SharingPlan } from './shared-subtrees.js';

/** What is stored beside the operations: the catalogue's context and what parsing the document said. */
export interface CatalogueRecordContext {
  readonly key: string;
  readonly catalogue: ToolCatalogue;
  /** What the scope roles were computed from (`scopeRoles`): every operation the document has. */
  readonly roleSources: readonly ScopedOperation[];
  /** What parsing the document said, which a cached start does not parse. */
  readonly documentWarnings: readonly string[];
}

export interface CatalogueEncoder {
  /**
   * Takes in the next operation of the catalogue; false when its schemas hold an object with the
   * key that marks a shared subtree, and the catalogue cannot be stored.
   */
  add(operation: Operation, conversion: ConvertedSchemas): boolean;
  /**
   * Once every operation was added, writes the text one table entry or operation per step, so
   * that a caller can yield between steps; its result is the text, or undefined as soon as the
   * text would be longer than `maxBytes`, before it is ever joined.
   */
  write(): Generator<void, string | undefined>;
}

export function catalogueEncoder(context: CatalogueRecordContext, maxBytes: number): CatalogueEncoder {
  const { catalogue } = context;
  const sharing = subtreeSharing();
  const records: OperationRecord[] = [];
  return {
    add(operation, conversion) {
      const record = operationRecord(operation, conversion);
      if (!SCHEMA_FIELDS.every((field) => sharing.add(record.schemas[field]))) return false;
      records.push(record);
      return true;
    },
    *write() {
      const plan = sharing.plan();
      const head = JSON.stringify({
        format: CATALOGUE_FORMAT,
        key: context.key,
        documentWarnings: context.documentWarnings,
        scopeDescriptions: catalogue.scopeDescriptions,
        apiBase: catalogue.apiBase,
        roleSources: context.roleSources.map(({ method, scopeAlternatives }) => ({ method, scopeAlternatives })),
        groupedBy: catalogue.groupedBy,
        upgradedFrom: catalogue.upgradedFrom,
        warnings: catalogue.warnings,
      });
      // The head loses its closing brace and gains `,"shared":[`, `],"operations":[` and `]}`; each part after the first of a list, a comma.
      let bytes = Buffer.byteLength(head) - 1 + ',"shared":['.length + '],"operations":['.length + ']}'.length;
      const over = (part: string, first: boolean) => {
        bytes += Buffer.byteLength(part) + (first ? 0 : 1);
        return bytes > maxBytes;
      };
      const shared: string[] = [];
      for (const entry of plan.table) {
        const part = plan.stringify(entry, true);
        if (over(part, shared.length === 0)) return undefined;
        shared.push(part);
        yield;
      }
      const operations: string[] = [];
      for (const record of records) {
        const part = operationText(record, plan);
        if (over(part, operations.length === 0)) return undefined;
        operations.push(part);
        yield;
      }
      return `${head.slice(0, -1)},"shared":[${shared.join(',')}],"operations":[${operations.join(',')}]}`;
    },
  };
}

/** An operation's fields apart from its schemas, and its schemas, which the sharing plan writes. */
interface OperationRecord {
  readonly plain: JsonRecord;
  readonly schemas: Readonly<Record<SchemaField, unknown>>;
}

function operationRecord(operation: Operation, { schemas, warnings }: ConvertedSchemas): OperationRecord {
  const plain = {
    toolName: operation.toolName,
    operationId: operation.operationId,
    method: operation.method,
    pathTemplate: operation.pathTemplate,
    title: operation.title,
    description: operation.description,
    tags: operation.tags,
    scopeAlternatives: operation.scopeAlternatives,
    requiredScopes: operation.requiredScopes,
    anonymousAccess: operation.anonymousAccess,
    toolset: operation.toolset,
    annotations: operation.annotations,
    deprecated: operation.deprecated,
    schemaBytes: schemas.listedBytes,
    schemaWarnings: warnings,
  };
  return {
    plain,
    schemas: {
      parameters: schemas.parameters,
      body: schemas.body,
      inputSchema: schemas.inputSchema,
      outputSchema: schemas.outputSchema,
    },
  };
}

/** The record's JSON: references only in its schema fields, so that no other field can ever hold one. */
function operationText(record: OperationRecord, plan: SharingPlan): string {
  const schemaFields = SCHEMA_FIELDS.filter((field) => record.schemas[field] !== undefined).map(
    (field) => `,"${field}":${plan.stringify(record.schemas[field])}`,
  );
  return `${JSON.stringify(record.plain).slice(0, -1)}${schemaFields.join('')}}`;
}
