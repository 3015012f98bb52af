/**
 * The next step after a 404, in the terms of the operation that got it: a lookup by code needs
 * another code, not an id, and the way to one is the list of the same things. Read from the path
 * template alone (`/coupons/by_code/{code}`: coupons, by their code), so it holds for any API and
 * never names a tool that may not be listed. Pure.
 */
import type { CallSummary } from './execution-outcome.js';

export function notFoundHint(call: Pick<CallSummary, 'pathTemplate'>): string {
  const segments = call.pathTemplate.split('/').filter((segment) => segment !== '');
  const placeholders = segments
    .map((segment, index) => ({ name: /^\{([^}]+)\}$/.exec(segment)?.[1], index }))
    .filter((found): found is { name: string; index: number } => found.name !== undefined);
  const last = placeholders[placeholders.length - 1];
  if (last === undefined)
    return 'Check the ids in the arguments: each must name an item that exists; list those items to find one.';
  const collection = collectionBefore(segments, last.index);
  const things = collection === undefined ? 'the items' : `the ${words(collection)}`;
  if (placeholders.length > 1) {
    const names = placeholders.map((found) => found.name).join(' and ');
    return `Check ${names}: each must name something that exists (and ${last.name} one of ${collection === undefined ? 'its items' : things}); list ${things} to find ${withArticle(keyOf(last.name))} that does.`;
  }
  const thing = collection === undefined ? 'item' : singular(words(collection));
  const key = keyOf(last.name);
  if (key === 'id') return `No ${thing} has this id: list ${things} and use an id from there.`;
  return `No ${thing} has this ${key}: check it for typos, or list ${things} to see which ${key}s exist.`;
}

/** `coupon_id` → `id`, `code` → `code`: what kind of value the argument is. */
function keyOf(name: string): string {
  return name === 'id' || /_id$/.test(name) ? 'id' : name.replace(/_/g, ' ');
}

/** The literal segment naming what the placeholder picks: `coupons` in `/coupons/by_code/{code}`. */
function collectionBefore(segments: readonly string[], index: number): string | undefined {
  for (let at = index - 1; at >= 0; at -= 1) {
    const segment = segments[at]!;
    if (segment.startsWith('{') || /^by[_-]/.test(segment)) continue;
    return segment;
  }
  return undefined;
}

function withArticle(key: string): string {
  return `${/^[aeiou]/.test(key) ? 'an' : 'a'} ${key}`;
}

function words(segment: string): string {
  return segment.replace(/[_-]+/g, ' ');
}

function singular(text: string): string {
  if (/ies$/.test(text)) return `${text.slice(0, -3)}y`;
  if (/(?:ss|sh|ch|x)es$/.test(text)) return text.slice(0, -2);
  if (/[^s]s$/.test(text)) return text.slice(0, -1);
  return text;
}
