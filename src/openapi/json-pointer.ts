/**
 * Local JSON Pointers (`#/components/schemas/Course`) as OpenAPI `$ref`s use them.
 * @see RFC 6901 §3-§6 (`~1` is `/`, `~0` is `~`, the fragment is percent-decoded)
 */
import { isRecord } from './json-value.js';

export type PointerResult =
  | { readonly found: true; readonly value: unknown }
  /** A `$ref` sat on the way: only a resolver that follows references can say. */
  | { readonly found: 'through-reference' }
  | { readonly found: false };

export function resolvePointer(root: unknown, reference: string): PointerResult {
  if (!reference.startsWith('#')) return { found: false };
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
    if (isRecord(node) && typeof node['$ref'] === 'string') return { found: 'through-reference' };
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
