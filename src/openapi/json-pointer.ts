/**
 * Local JSON Pointers (`#/components/schemas/Course`) as OpenAPI `$ref`s use them, resolved on
 * read: the catalogue follows a reference where it meets one instead of rewriting the document
 * first, so only what the listed operations use is ever looked up.
 * @see RFC 6901 §3-§6 (`~1` is `/`, `~0` is `~`, the fragment is percent-decoded)
 */
import { isRecord } from './json-value.js';

export type PointerResult = { readonly found: true; readonly value: unknown } | { readonly found: false };

/**
 * References followed for one lookup: a `$ref` met on the way (`#/components/responses/Ok/content`
 * where `Ok` is itself a reference) counts one hop. Ends reference loops (`A` → `B` → `A`).
 */
export const MAX_REFERENCE_HOPS = 32;

/**
 * Pointer tokens walked for one lookup, the references met on the way included. Without it, a
 * pointer whose every token passes through a reference to another such pointer costs its length
 * to the power of the hops: a few lines of document, and no answer.
 */
export const MAX_POINTER_STEPS = 256;

/** Real pointers name a component or a path in well under this; a longer one is not looked up. */
const MAX_POINTER_LENGTH = 4_096;

/**
 * Lookups already made, per document: a document names the same few targets thousands of times.
 * Each lookup is bounded on its own, so a remembered answer is the one a new lookup would give.
 */
const lookups = new WeakMap<object, Map<string, PointerResult>>();

/** The value `reference` points at in `root`, following any `$ref` met on the way; nothing remembered. */
export function lookUpPointer(root: unknown, reference: string): PointerResult {
  return follow(root, reference, 0, { steps: 0 });
}

/**
 * `lookUpPointer`, remembered per `root`: for a document that no longer changes (the catalogue's
 * checked copy, which nothing writes to).
 */
export function resolvePointer(root: unknown, reference: string): PointerResult {
  if (typeof root !== 'object' || root === null) return lookUpPointer(root, reference);
  let known = lookups.get(root);
  if (!known) {
    known = new Map();
    lookups.set(root, known);
  }
  let result = known.get(reference);
  if (!result) {
    result = lookUpPointer(root, reference);
    known.set(reference, result);
  }
  return result;
}

function follow(root: unknown, reference: string, hops: number, walked: { steps: number }): PointerResult {
  if (hops > MAX_REFERENCE_HOPS || !reference.startsWith('#') || reference.length > MAX_POINTER_LENGTH)
    return { found: false };
  let fragment: string;
  try {
    fragment = decodeURIComponent(reference.slice(1));
  } catch {
    return { found: false };
  }
  if (fragment === '') return { found: true, value: root };
  if (!fragment.startsWith('/')) return { found: false };
  let node: unknown = root;
  for (const token of fragment.slice(1).split('/')) {
    walked.steps += 1;
    if (walked.steps > MAX_POINTER_STEPS) return { found: false };
    if (isRecord(node) && typeof node['$ref'] === 'string') {
      const through = follow(root, node['$ref'], hops + 1, walked);
      if (!through.found) return through;
      node = through.value;
    }
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else if (isRecord(node) && Object.hasOwn(node, key)) node = node[key];
    else return { found: false };
  }
  return node === undefined ? { found: false } : { found: true, value: node };
}

export function escapePointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
