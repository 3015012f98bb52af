/**
 * Path templates from the document's `paths` keys. A path is appended to the API base, never
 * resolved against it (OpenAPI Paths Object), so a template that a URL parser would reinterpret
 * (`//host`, dot segments, `\`, `?`, `#`, control characters) is refused when the catalogue is
 * built: such an operation never becomes a tool.
 * @see SECURITY.md API-02
 */

/** RFC 3986 §3.3 `pchar` plus `/` and `{name}` template expressions. */
const PATH_CHARACTERS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/{}]*$/;
const PLACEHOLDER = /\{([^{}]*)\}/g;
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** Why a template is refused, or undefined when it is safe to append. */
export function pathTemplateProblem(template: string): string | undefined {
  if (!template.startsWith('/')) return 'it does not start with "/"';
  // Checked before the character set so that the reason names what is wrong, not a symptom.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(template)) return 'it contains control characters';
  if (template.includes('\\')) return 'it contains a backslash';
  if (template.includes('?') || template.includes('#')) return 'it contains "?" or "#"';
  if (template.startsWith('//') || template.includes('//')) return 'it contains an empty segment ("//")';
  if (!PATH_CHARACTERS.test(template)) return 'it contains characters that are not allowed in a URL path';
  if (/%(?![0-9A-Fa-f]{2})/.test(template)) return 'it contains a malformed percent-encoding';
  if (/%2f|%5c/i.test(template)) return 'it contains an encoded "/" or "\\"';
  const segments = template.slice(1).split('/');
  if (segments.some((segment) => DOT_SEGMENT.test(segment))) return 'it contains a "." or ".." segment';
  if (segments.some((segment) => /^[a-z][a-z0-9+.-]*:$/i.test(segment))) return 'it looks like an absolute URL';
  const withoutPlaceholders = template.replace(PLACEHOLDER, 'x');
  if (/[{}]/.test(withoutPlaceholders)) return 'it has unbalanced "{" or "}"';
  if (templateNames(template).some((name) => name === '')) return 'it has an empty "{}" placeholder';
  return undefined;
}

/** The placeholder names of a template, in order, e.g. `/courses/{course_id}` → `['course_id']`. */
export function templateNames(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '');
}
