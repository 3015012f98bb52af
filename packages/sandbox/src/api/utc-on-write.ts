/**
 * Every date-time a caller writes is stored in UTC, whatever offset it was sent with, so records
 * compare and sort as plain strings and read back in one form. Pure: walks the value by its schema.
 */
import { refName, type JsonSchema } from './schema.js';
import { toUtcTimestamp } from './school-time.js';
import type { Components } from './validate.js';

/** The value with each `format: date-time` string rewritten in UTC; call it on validated input. */
export function withUtcDateTimes(value: unknown, schema: JsonSchema, components: Components): unknown {
  const name = refName(schema);
  if (name !== undefined) {
    const target = components[name];
    return target ? withUtcDateTimes(value, target, components) : value;
  }
  if (typeof value === 'string') return schema.format === 'date-time' ? toUtcTimestamp(Date.parse(value)) : value;
  if (Array.isArray(value)) {
    const items = schema.items;
    return items ? value.map((item) => withUtcDateTimes(item, items, components)) : value;
  }
  if (typeof value === 'object' && value !== null) {
    const properties = schema.properties ?? {};
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        const propertySchema = properties[key];
        return [key, propertySchema ? withUtcDateTimes(item, propertySchema, components) : item];
      }),
    );
  }
  return value;
}
