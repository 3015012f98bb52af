/**
 * Narrowing for values read out of an untrusted OpenAPI document. Every reader in this part goes
 * through these guards instead of trusting the document's declared shape.
 */

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function recordOr(value: unknown): JsonRecord {
  return isRecord(value) ? value : {};
}

export function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function arrayOr(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Own entries only, so a document key such as `__proto__` or `constructor` is plain data. */
export function entriesOf(value: unknown): [string, unknown][] {
  return isRecord(value) ? Object.entries(value) : [];
}

/**
 * Sets `key` on a copy being built as an own data property. Plain assignment of `__proto__` would
 * set the copy's prototype instead, and a document may name a property or a subschema so.
 */
export function setDataProperty(target: JsonRecord, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
