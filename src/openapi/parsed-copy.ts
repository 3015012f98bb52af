/**
 * The JSON copy of a YAML document, kept in the OpenAPI cache under the hash of the YAML text, so
 * that a restart on the same document reads it with `JSON.parse` instead of the YAML parser: on
 * the GitHub document the YAML parse was about half of the start (BENCHMARKS.md). Keyed by the
 * text itself, a copy can never be stale. Pure; the cache (`document-cache.ts`) does the I/O.
 */
import { createHash } from 'node:crypto';
import type { ParsedDocument } from './parse-document.js';

/** Bumped when what is stored changes meaning, so that older copies are simply not found. */
// v2: merge keys (`<<`) are merged; a v1 copy kept them as a property named `<<`.
const COPY_FORMAT = 'parsed-v2';

export function parsedCopyName(yamlText: string): string {
  return `parsed-${createHash('sha256').update(COPY_FORMAT).update('\0').update(yamlText).digest('hex').slice(0, 32)}.json`;
}

/**
 * The JSON text to store for a parsed YAML document, or undefined when JSON would not give the
 * same document back: YAML warnings (they are reported on every start, and a copy would lose
 * them), or a number JSON cannot write (`.inf`, `.nan`, `-0`).
 */
export function parsedCopyText(parsed: ParsedDocument): string | undefined {
  if (parsed.warnings.length > 0 || !jsonExact(parsed.document)) return undefined;
  return JSON.stringify(parsed.document);
}

function jsonExact(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'number') {
      if (!Number.isFinite(next) || Object.is(next, -0)) return false;
    } else if (typeof next === 'object' && next !== null) {
      // One push per value: spreading a 250,000-key mapping into push's arguments overflows the stack.
      for (const inner of Array.isArray(next) ? next : Object.values(next)) pending.push(inner);
    }
  }
  return true;
}
