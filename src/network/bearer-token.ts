/**
 * The token of an `Authorization: Bearer` request header (RFC 6750 §2.1), for each endpoint that
 * takes one. Pure.
 */

/**
 * Which tokens a reader takes. `b64token` is RFC 6750 §2.1's alphabet, which every token
 * school-mcp issues keeps to; `visible-ascii` takes any visible ASCII, for a secret the user
 * chose (`--http-secret`), which may hold punctuation outside that alphabet.
 */
export type BearerTokenAlphabet = 'b64token' | 'visible-ascii';

const TOKEN_PATTERNS: Readonly<Record<BearerTokenAlphabet, RegExp>> = {
  b64token: /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i,
  'visible-ascii': /^Bearer +([\x21-\x7E]+) *$/i,
};

/**
 * The token of the one `Authorization` field a request carries (Node's `headersDistinct`), or
 * `undefined`: no field, two fields (the field is not a list, RFC 9110 §5.3, and RFC 6750 §2
 * allows one method with one token), another scheme (its name is case-insensitive, RFC 9110
 * §11.1), an empty token, or a character outside the alphabet.
 */
export function bearerTokenOf(
  values: readonly string[] | undefined,
  alphabet: BearerTokenAlphabet = 'b64token',
): string | undefined {
  if (values === undefined || values.length !== 1) return undefined;
  return TOKEN_PATTERNS[alphabet].exec(values[0]!)?.[1];
}
