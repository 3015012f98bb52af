/**
 * Keeps only the fields an agent asked for in a JSON answer. A list page (an object whose `items`,
 * `data`, `results`... is a list of records) keeps its paging fields and projects each record; any
 * other object is projected itself. `a.b` reaches into nested objects and through lists. Pure.
 */
const LIST_KEYS = ['items', 'data', 'results', 'records', 'entries', 'rows', 'elements', 'list'];

export interface Projection {
  readonly value: Record<string, unknown>;
  /** Asked-for fields found in no record: probably misspelt. */
  readonly unknown: readonly string[];
}

export function projectFields(value: Record<string, unknown>, fields: readonly string[]): Projection {
  const paths = [...new Set(fields.map((field) => field.trim()).filter((field) => field !== ''))].map((field) =>
    field.split('.'),
  );
  if (paths.length === 0) return { value, unknown: [] };
  const seen = new Set<string>();
  const listKey = LIST_KEYS.find((key) => Array.isArray(value[key]) && (value[key] as unknown[]).every(isRecord));
  const projected =
    listKey === undefined
      ? pick(value, paths, seen)
      : {
          ...value,
          [listKey]: (value[listKey] as Record<string, unknown>[]).map((record) => pick(record, paths, seen)),
        };
  const records = listKey === undefined ? 1 : (value[listKey] as unknown[]).length;
  const unknown = records === 0 ? [] : paths.map((path) => path.join('.')).filter((path) => !seen.has(path));
  return { value: projected, unknown };
}

function pick(record: Record<string, unknown>, paths: readonly string[][], seen: Set<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    if (copyPath(record, out, path)) seen.add(path.join('.'));
  }
  return out;
}

/** Copies `path` from `source` into `target`, merging with what earlier paths copied; false when absent. */
function copyPath(source: Record<string, unknown>, target: Record<string, unknown>, path: readonly string[]): boolean {
  const [head, ...rest] = path;
  if (head === undefined || !Object.hasOwn(source, head)) return false;
  const inner = source[head];
  if (rest.length === 0) {
    target[head] = inner;
    return true;
  }
  if (Array.isArray(inner)) {
    const existing = Array.isArray(target[head]) ? (target[head] as unknown[]) : inner.map(() => ({}));
    let found = false;
    inner.forEach((item, index) => {
      if (
        isRecord(item) &&
        isRecord(existing[index]) &&
        copyPath(item, existing[index] as Record<string, unknown>, rest)
      )
        found = true;
    });
    target[head] = existing;
    return found;
  }
  if (!isRecord(inner)) return false;
  const nested = isRecord(target[head]) ? (target[head] as Record<string, unknown>) : {};
  const found = copyPath(inner, nested, rest);
  if (found) target[head] = nested;
  return found;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
