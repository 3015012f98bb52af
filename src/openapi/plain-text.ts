/**
 * Document prose to short plain text for tool and property descriptions. The text is only ever
 * shown, never evaluated; this keeps it readable and bounded: HTML tags and markdown link syntax
 * go, control and format characters go (school-text's one rule for what is not shown), whitespace
 * collapses, length is capped.
 * @see SECURITY.md API-08 (descriptions are plain text), API-15 (no invisible characters)
 */
import { isShowable, showableText } from '../school-text/index.js';

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/**
 * How much source text is read per character shown. Markup outweighs prose several times over,
 * but the markup patterns cost time quadratic in what they scan when a tag or link never closes,
 * so 200 kB of `[a](` once took seconds: only this head of a text is ever cleaned.
 * @see SECURITY.md API-13
 */
const SOURCE_CHARS_PER_SHOWN_CHAR = 16;
const MIN_SOURCE_CHARS = 4096;

/**
 * Large documents repeat the same prose thousands of times (a shared schema's property
 * descriptions, once per operation that uses it): each distinct text is cleaned once.
 */
const MAX_REMEMBERED = 20_000;
/**
 * Keyed by the length shown, then by the text itself: V8 keeps a string's hash with the string,
 * so looking up the document's own string again costs no pass over it, where a key made by
 * joining the two was a new string to hash each time (the Kubernetes document's parameter
 * descriptions run to kilobytes, met once per operation).
 */
const remembered = new Map<number, Map<string, string>>();
let rememberedCount = 0;

/** One line or paragraph of prose: markup removed, whitespace collapsed, at most `maxLength`. */
export function plainText(text: string, maxLength: number): string {
  let forLength = remembered.get(maxLength);
  const known = forLength?.get(text);
  if (known !== undefined) return known;
  const plain = capLength(collapseWhitespace(stripMarkup(showableText(sourceHead(text, maxLength)))), maxLength);
  if (rememberedCount >= MAX_REMEMBERED) {
    remembered.clear();
    rememberedCount = 0;
    forLength = undefined;
  }
  if (forLength === undefined) remembered.set(maxLength, (forLength = new Map()));
  forLength.set(text, plain);
  rememberedCount += 1;
  return plain;
}

/**
 * The part of `text` worth cleaning to show `maxLength` characters; a tag cut in half at the end
 * is dropped rather than shown.
 */
function sourceHead(text: string, maxLength: number): string {
  const limit = Math.max(MIN_SOURCE_CHARS, maxLength * SOURCE_CHARS_PER_SHOWN_CHAR);
  if (text.length <= limit) return text;
  const head = text.slice(0, limit);
  const lastOpen = head.lastIndexOf('<');
  return lastOpen > head.lastIndexOf('>') ? head.slice(0, lastOpen) : head;
}

/**
 * The useful opening of a long description: paragraphs in order until `maxLength`, skipping code
 * blocks, tables, headings and lists of links, which say little to an agent choosing a tool.
 */
export function leadingParagraphs(text: string, maxLength: number): string {
  const withoutFences = showableText(sourceHead(text, maxLength)).replace(/```[\s\S]*?(```|$)/g, '\n\n');
  const paragraphs = withoutFences
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '' && !/^(#|\||<table|<pre|-{3,}|\* \[)/i.test(paragraph))
    .map((paragraph) => collapseWhitespace(stripMarkup(paragraph)))
    .filter((paragraph) => paragraph !== '');
  let result = '';
  for (const paragraph of paragraphs) {
    const next = result === '' ? paragraph : `${result}\n\n${paragraph}`;
    if (next.length > maxLength) return result === '' ? capLength(paragraph, maxLength) : result;
    result = next;
  }
  return result;
}

export function capLength(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${lastSpace > maxLength * 0.6 ? cut.slice(0, lastSpace) : cut}…`;
}

/** Every pattern of `stripMarkup` needs one of these characters; most prose has none. */
const MARKUP_CHARACTER = /[[<&*_`]/;

function stripMarkup(text: string): string {
  if (!MARKUP_CHARACTER.test(text)) return text;
  return (
    text
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
      // Unclosed, a comment or script runs to the end, as in HTML, rather than showing as text.
      .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
      .replace(/<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, '')
      .replace(/<br\s*\/?>/gi, ' ')
      .replace(/<\/?[a-zA-Z][^>]*>/g, '')
      .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, decodeEntity)
      .replace(/(\*\*|__)(\S(?:[^*_]*\S)?)\1/g, '$2')
      .replace(/`([^`]+)`/g, '$1')
  );
}

function decodeEntity(entity: string, body: string): string {
  if (body.startsWith('#')) {
    const code =
      body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    const decoded = Number.isInteger(code) && code > 31 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    // An entity must not bring back what `showableText` took out (`&#x202E;`, `&#8203;`).
    return isShowable(decoded) ? decoded : '';
  }
  return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
