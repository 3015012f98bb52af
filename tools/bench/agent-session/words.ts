/**
 * The words the played agent compares: lower case, plurals folded ("courses" is "course"), small
 * words left out. Its own, not the server's search: the agent must not share the server's idea of
 * a match. Pure.
 */
const SMALL_WORDS = new Set(['a', 'an', 'the', 'of', 'for', 'to', 'in', 'on', 'by', 'with', 'and', 'i', 'my']);

export function administratorWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !SMALL_WORDS.has(word))
    .map(singular);
}

/** `get_coupon_by_code` → `get coupon code`. */
export function nameWords(name: string): string[] {
  return administratorWords(name.replace(/_/g, ' '));
}

function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}
