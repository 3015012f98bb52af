/**
 * A `$ref` followed to what it names, as every reader of the document's schemas needs it. Pure.
 */
import { MAX_REFERENCE_HOPS, resolvePointer } from './json-pointer.js';
import { isRecord, type JsonRecord } from './json-value.js';

/**
 * The object a `$ref` names (a schema, parameter, request body or response), with the reference's
 * own sibling keywords laid over it (OpenAPI 3.1: a `description` or `summary` beside a `$ref`
 * overrides the target's). Chains of references are followed, outermost siblings winning.
 */
export function resolveSchema(schema: unknown, root: JsonRecord): unknown {
  let resolved = schema;
  const layers: JsonRecord[] = [];
  for (let hops = 0; isRecord(resolved) && typeof resolved['$ref'] === 'string' && hops <= MAX_REFERENCE_HOPS; hops++) {
    const target = resolvePointer(root, resolved['$ref']);
    if (!target.found || !isRecord(target.value)) break;
    const { $ref: _reference, ...siblings } = resolved;
    layers.push(siblings);
    resolved = target.value;
  }
  if (layers.length === 0) return schema;
  return layers.reduceRight<unknown>(
    (inner, siblings) => (Object.keys(siblings).length === 0 ? inner : { ...(inner as JsonRecord), ...siblings }),
    resolved,
  );
}
