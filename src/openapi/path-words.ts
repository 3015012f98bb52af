/**
 * The words of a path that say what it is about, for tool names and toolsets. Dropped from the
 * front: the static segments every path of the document shares (`/ims/oneroster/rostering/v1p2`
 * in a OneRoster document), and then a namespace that ends in a version (`/api/v1`,
 * `/ims/oneroster/rostering/v1p2`, `/V1`) within the first few segments. At least one segment
 * always stays.
 */

/** `v1`, `v1p2`, `v2.1`, `V1`, `v1beta1`, and the bare `api`/`rest` that prefix many versions. */
const VERSION_SEGMENT = /^(api|rest|v\d+[a-z0-9.]*)$/i;

/** How deep a version may sit and still mark the end of a namespace prefix. */
const MAX_NAMESPACE_DEPTH = 4;

function pathSegments(pathTemplate: string): string[] {
  return pathTemplate.split('/').filter((segment) => segment !== '');
}

export function isPlaceholder(segment: string): boolean {
  return /^\{[^}]*\}$/.test(segment);
}

/** How many leading static segments all the paths share (never all of any path's segments). */
export function sharedPrefixLength(pathTemplates: readonly string[]): number {
  const split = pathTemplates.map(pathSegments);
  const [first, ...rest] = split;
  if (first === undefined || rest.length === 0) return 0;
  let length = 0;
  for (; length < first.length; length += 1) {
    const segment = first[length] ?? '';
    if (isPlaceholder(segment)) break;
    if (!rest.every((segments) => segments[length] === segment && segments.length > length + 1)) break;
    if (first.length <= length + 1) break;
  }
  return length;
}

/** The meaningful segments of one path, with `sharedPrefix` leading segments already known to be common. */
export function meaningfulSegments(pathTemplate: string, sharedPrefix = 0): string[] {
  const segments = pathSegments(pathTemplate).slice(sharedPrefix);
  const lastVersion = segments.slice(0, MAX_NAMESPACE_DEPTH).findLastIndex((segment) => VERSION_SEGMENT.test(segment));
  const rest = lastVersion >= 0 && lastVersion < segments.length - 1 ? segments.slice(lastVersion + 1) : segments;
  return rest.length > 0 ? rest : pathSegments(pathTemplate).slice(-1);
}
