/**
 * A deep copy of a JSON value: remembered conversions are handed out as copies, since no two tools
 * may share a schema object (each may be changed on its way to a host). Pure.
 */
import { setDataProperty } from './json-value.js';

export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // Copied values come from converted schemas and JSON literals: `__proto__` would be data there.
    setDataProperty(copy, key, cloneJson((value as Record<string, unknown>)[key]));
  }
  return copy as T;
}
