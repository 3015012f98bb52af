/**
 * Media types (RFC 9110 §8.3.1): `type "/" subtype *( OWS ";" OWS parameter )`, compared without
 * regard to case. Pure; one rule for the document's declared content and the school's answers.
 */

/** The media type without parameters, lower-cased: `application/json` of `Application/JSON; charset=utf-8`. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * JSON: `application/json` (RFC 8259 §11), or any subtype with the `+json` structured syntax
 * suffix (RFC 6839 §3.1). The suffix names the subtype's syntax whatever the top-level type
 * (RFC 6838 §4.2.8), so `application/problem+json` and `text/vnd.a+json` both count; the
 * subtype needs a name before the suffix, so `application/+json` and a bare `+json` do not.
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const type = mediaTypeOf(contentType);
  return type === 'application/json' || /^[^/\s]+\/[^/\s]+\+json$/.test(type);
}
