/**
 * How much JSON a value makes, for the schema budgets (API-11). Pure.
 * @see SECURITY.md API-11
 */

/** UTF-8 bytes of `JSON.stringify(value)`; 0 for what JSON leaves out (`undefined`). */
export function jsonBytes(value: unknown): number {
  const text = JSON.stringify(value);
  return text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
}

/**
 * The JSON length of `value` in characters when it is at most `cap`, else undefined. Stops as
 * soon as the cap is passed, so measuring a document's 1 MB example costs no more than the cap.
 */
export function jsonLengthWithin(value: unknown, cap: number): number | undefined {
  let total = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') total += item.length + 2;
    else if (typeof item === 'number' || typeof item === 'boolean') total += String(item).length;
    else if (item === null) total += 4;
    else if (Array.isArray(item)) {
      total += 2 + Math.max(0, item.length - 1);
      if (total > cap) return undefined;
      for (const child of item) pending.push(child);
    } else if (typeof item === 'object') {
      const entries = Object.entries(item);
      total += 2 + Math.max(0, entries.length - 1);
      if (total > cap) return undefined;
      for (const [key, child] of entries) {
        total += key.length + 3;
        pending.push(child);
      }
    }
    if (total > cap) return undefined;
  }
  return total;
}
