/**
 * The characters a reader of school text never sees, named once for every place that shows a
 * school's or a document's words (free text, descriptions, titles): controls, and format
 * characters (Unicode Cf: bidirectional overrides and isolates, zero-width spaces and joiners,
 * the byte order mark, the soft hyphen, the tags block) that make what is shown differ from what
 * a model reads, or hide words from the person looking at it. Pure.
 * @see SECURITY.md ERR-05, API-15
 */

/** C0 and C1 controls other than tab and line breaks, and the line and paragraph separators: shown as a space. */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/g;
/** Format characters, and the whole tags block (its unassigned code points included): dropped. */
const FORMAT = /[\p{Cf}\u{E0000}-\u{E007F}]/gu;
const ANY_UNSHOWABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\p{Cf}\u{E0000}-\u{E007F}]/u;

/**
 * The text without format characters, and with each control or separator a space; tab, CR and
 * LF stay, for the caller to collapse with the rest of the whitespace (paragraphs are split on them).
 */
export function showableText(text: string): string {
  if (!ANY_UNSHOWABLE.test(text)) return text;
  return text.replace(FORMAT, '').replace(CONTROLS, ' ');
}

/** Whether `text` holds nothing `showableText` would change (for a character decoded from an entity). */
export function isShowable(text: string): boolean {
  return !ANY_UNSHOWABLE.test(text);
}
