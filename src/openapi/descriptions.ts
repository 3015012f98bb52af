/**
 * Tool titles and descriptions in plain text: the summary, the useful opening of the document's
 * description, and a last paragraph that names the scope the call needs (or says it is public).
 * That last paragraph is always last, so `withScopeLine` can replace it when a selection narrows
 * the scopes (read-only mode).
 * @see SECURITY.md API-08 (plain text, never evaluated)
 */
import { capLength, leadingParagraphs, plainText } from './plain-text.js';
import type { ScopeAlternatives } from './toolsets.js';
import { userTextNote } from './user-text-fields.js';

const MAX_TITLE_LENGTH = 80;
const MAX_SUMMARY_LENGTH = 200;
const MAX_DETAIL_LENGTH = 600;
const PARAGRAPH = '\n\n';
const SCOPE_PARAGRAPH = /^(requires? (the )?(oauth )?scopes?|required scopes?|scopes?)\b[^:]*:/i;

export interface DescriptionInput {
  readonly toolName: string;
  readonly summary: string | undefined;
  readonly description: string | undefined;
  readonly deprecated: boolean;
  readonly scopeAlternatives: ScopeAlternatives;
  readonly requiredScopes: readonly string[];
  readonly anonymousAccess: boolean;
  /** Fields of the answer that people wrote; named in one short phrase before the scope line. */
  readonly userTextFields?: readonly string[];
}

export function titleFor(summary: string | undefined, toolName: string): string {
  const fromSummary = summary === undefined ? '' : plainText(summary, MAX_TITLE_LENGTH).replace(/\.$/, '');
  if (fromSummary !== '') return fromSummary;
  const words = toolName.replace(/[_-]+/g, ' ').trim();
  return capLength(words.charAt(0).toUpperCase() + words.slice(1), MAX_TITLE_LENGTH);
}

export function describeOperation(input: DescriptionInput): string {
  const paragraphs: string[] = [];
  if (input.deprecated) paragraphs.push('Deprecated by the API.');
  const summary = input.summary === undefined ? '' : plainText(input.summary, MAX_SUMMARY_LENGTH);
  const detail =
    input.description === undefined
      ? ''
      : leadingParagraphs(withoutScopeParagraphs(input.description), MAX_DETAIL_LENGTH);
  const detailRepeatsSummary =
    summary !== '' && detail.toLowerCase().startsWith(summary.replace(/\.$/, '').toLowerCase());
  if (summary !== '' && !detailRepeatsSummary) paragraphs.push(/[.!?…]$/.test(summary) ? summary : `${summary}.`);
  if (detail !== '') paragraphs.push(detail);
  if (summary === '' && detail === '') paragraphs.push(`${titleFor(undefined, input.toolName)}.`);
  const note = userTextNote(input.userTextFields ?? []);
  if (note !== undefined) paragraphs.push(note);
  paragraphs.push(scopeLine(input.scopeAlternatives, input.requiredScopes, input.anonymousAccess));
  return paragraphs.join(PARAGRAPH);
}

/** The document's own words on scopes give way to the generated last line, which is always present. */
function withoutScopeParagraphs(description: string): string {
  return description
    .split(/\n\s*\n/)
    .filter((paragraph) => !SCOPE_PARAGRAPH.test(paragraph.trim()))
    .join('\n\n');
}

/** The same description with its final scope paragraph rewritten for narrowed scopes. */
export function withScopeLine(
  description: string,
  alternatives: ScopeAlternatives,
  requiredScopes: readonly string[],
  anonymousAccess: boolean,
): string {
  const cut = description.lastIndexOf(PARAGRAPH);
  const body = cut === -1 ? '' : description.slice(0, cut + PARAGRAPH.length);
  return body + scopeLine(alternatives, requiredScopes, anonymousAccess);
}

function scopeLine(
  alternatives: ScopeAlternatives,
  requiredScopes: readonly string[],
  anonymousAccess = false,
): string {
  const line = accessLine(alternatives, requiredScopes);
  return anonymousAccess ? `${line} Without sign-in, only the public view is served.` : line;
}

function accessLine(alternatives: ScopeAlternatives, requiredScopes: readonly string[]): string {
  if (alternatives.length === 0) return 'Public: no sign-in needed.';
  if (requiredScopes.length === 0) return 'Requires sign-in.';
  const required = `Requires scope${requiredScopes.length > 1 ? 's' : ''}: ${requiredScopes.join(', ')}.`;
  const others = alternatives
    .filter((alternative) => alternative.join(' ') !== requiredScopes.join(' ') && alternative.length > 0)
    .map((alternative) => alternative.join(' + '));
  return others.length === 0 ? required : `${required} Also accepted: ${others.join(' or ')}.`;
}
