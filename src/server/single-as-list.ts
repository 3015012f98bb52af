/**
 * A single value given where a tool parameter takes a list is that one-item list: agents write
 * `state: "past_due"` for a multi-value filter as often as `state: ["past_due"]`, and refusing it
 * costs a call for nothing. Pure; only top-level parameters, whose lists are filters and ids.
 */
type Schema = Readonly<Record<string, unknown>>;

export function withSinglesAsLists(schema: Schema, value: unknown): unknown {
  const properties = schema['properties'];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  if (typeof properties !== 'object' || properties === null) return value;
  let changed: Record<string, unknown> | undefined;
  for (const [name, item] of Object.entries(value)) {
    const property = (properties as Record<string, Schema | undefined>)[name];
    if (
      property?.['type'] !== 'array' ||
      item === undefined ||
      item === null ||
      Array.isArray(item) ||
      typeof item === 'object'
    )
      continue;
    changed ??= { ...(value as Record<string, unknown>) };
    changed[name] = [item];
  }
  return changed ?? value;
}
