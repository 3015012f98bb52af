/**
 * The guard that runs before any `$ref` is resolved: the document checked so that every reference
 * is local (`#/...`). External references (`https:`, `file:`, relative files, `$id`-based names)
 * are refused outright, so resolution can never reach the network or the disk; local ones that
 * point nowhere become empty schemas with a warning. The check is also the point where object
 * cycles (YAML aliases to an ancestor), pathological sizes and nesting (API-12) are caught.
 *
 * Only what must change is copied (a replaced reference, a `__proto__` key, an object that is not
 * plain data, and the objects above them); the rest is the document's own objects, which the
 * catalogue only reads and the caller must not change afterwards. Copying every node made this
 * a sixth of the catalogue build and most of its garbage on a 3,000-operation document.
 * @see SECURITY.md API-08
 * @see SECURITY.md API-12
 */
import { SchoolMcpError } from '../errors.js';
import { MAX_DOCUMENT_DEPTH, tooDeepError } from './document-depth.js';
import { escapePointerToken, lookUpPointer } from './json-pointer.js';
import type { JsonRecord } from './json-value.js';

export interface CheckedDocument {
  /** The document itself when nothing needed changing. */
  readonly copy: JsonRecord;
  readonly warnings: readonly string[];
}

/** Values under these keys are literal data, never references. */
const LITERAL_KEYS = new Set(['example', 'default', 'enum', 'const']);

/** Nodes a copy may hold; bounds what shared YAML aliases or a caller's object graph can expand to. */
const MAX_NODES = 5_000_000;

function isLiteralKey(key: string): boolean {
  return LITERAL_KEYS.has(key) || key.startsWith('x-');
}

export function copyCheckingReferences(document: JsonRecord): CheckedDocument {
  const warnings: string[] = [];
  const ancestors = new Set<object>();
  // A document names the same few targets thousands of times; each is looked up once.
  const localReferences = new Map<string, boolean>();
  // The keys from the root to the value being copied. The pointer they make is written only for
  // a warning or an error: building it for every node was most of the copy's time in a profile.
  const path: (string | number)[] = [];
  const location = () =>
    `#${path.map((token) => `/${typeof token === 'number' ? token : escapePointerToken(token)}`).join('')}`;
  let nodes = 0;

  const copyValue = (value: unknown, literal: boolean, depth: number): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    // Also reached by a caller's object graph or YAML aliases nested inside one another, which
    // the parser's own depth check does not see expanded.
    if (depth > MAX_DOCUMENT_DEPTH) throw tooDeepError();
    if (ancestors.has(value)) {
      throw new SchoolMcpError(
        'OPENAPI_CYCLIC_DOCUMENT',
        `The OpenAPI document contains an object cycle at ${location()} (a YAML alias to its own ancestor).`,
        { hint: 'Replace the recursive YAML alias with a $ref.' },
      );
    }
    nodes += 1;
    if (nodes > MAX_NODES) {
      throw new SchoolMcpError('OPENAPI_TOO_LARGE', 'The OpenAPI document expands to too many nodes.', {
        hint: 'Remove repeated YAML aliases or split the API description.',
      });
    }
    ancestors.add(value);
    try {
      if (Array.isArray(value)) {
        let copy: unknown[] | undefined;
        for (let index = 0; index < value.length; index += 1) {
          path.push(index);
          const item: unknown = value[index];
          const checked = copyValue(item, literal, depth + 1);
          path.pop();
          if (checked !== item) copy ??= value.slice(0, index);
          if (copy !== undefined) copy[index] = checked;
        }
        return copy ?? value;
      }
      const reference = literal ? undefined : (value as JsonRecord)['$ref'];
      if (typeof reference === 'string' && !isKnownLocal(reference)) {
        warnings.push(
          `Unresolved reference ${JSON.stringify(reference.slice(0, 200))} at ${location()}; treated as an empty schema.`,
        );
        return { description: 'Not described by the API document.' };
      }
      const record = value as JsonRecord;
      const keys = Object.keys(record);
      // Anything but a plain object (a class instance, a null-prototype map) becomes a plain copy of its own keys.
      let copy: JsonRecord | undefined = Object.getPrototypeOf(record) === Object.prototype ? undefined : {};
      for (let index = 0; index < keys.length; index += 1) {
        const key = keys[index] as string;
        // Assigning `__proto__` would set the copy's prototype; it is never meaningful in OpenAPI.
        if (key === '__proto__') {
          copy ??= plainHead(record, keys, index);
          continue;
        }
        path.push(key);
        const child = record[key];
        const checked = copyValue(child, literal || isLiteralKey(key), depth + 1);
        path.pop();
        if (checked !== child) copy ??= plainHead(record, keys, index);
        if (copy !== undefined) copy[key] = checked;
      }
      return copy ?? value;
    } finally {
      ancestors.delete(value);
    }
  };

  const isKnownLocal = (reference: string): boolean => {
    let local = localReferences.get(reference);
    if (local === undefined) {
      local = isLocalReference(reference, document);
      localReferences.set(reference, local);
    }
    return local;
  };

  const copy = copyValue(document, false, 1);
  return { copy: copy as JsonRecord, warnings };
}

/** A copy of the first `count` keys of `record`, which needed no change. */
function plainHead(record: JsonRecord, keys: readonly string[], count: number): JsonRecord {
  const head: JsonRecord = {};
  for (let index = 0; index < count; index += 1) {
    const key = keys[index] as string;
    if (key !== '__proto__') head[key] = record[key];
  }
  return head;
}

/**
 * True when `reference` is a local JSON Pointer that resolves in `document`; throws for every
 * reference that would leave the document.
 */
function isLocalReference(reference: string, document: JsonRecord): boolean {
  if (!reference.startsWith('#')) {
    throw new SchoolMcpError(
      'OPENAPI_EXTERNAL_REF',
      `The OpenAPI document refers outside itself: $ref ${JSON.stringify(reference.slice(0, 200))}.`,
      {
        hint: 'Bundle the document into a single file with only local "#/..." references (for example with `redocly bundle`).',
      },
    );
  }
  return lookUpPointer(document, reference).found !== false;
}
