/**
 * The redirect back to the client (RFC 6749 §4.1.2) with `iss` (RFC 9207 §2), on success and on
 * error alike, so a client talking to several schools can tell which one answered.
 */

export interface AuthorizationResponseParameters {
  code?: string;
  error?: string;
  error_description?: string;
  state: string | undefined;
  /** `undefined` leaves `iss` off (a fault knob only). */
  iss: string | undefined;
}

/** Pure: the redirect URI with the response parameters added to its query. */
export function buildAuthorizationRedirect(redirectUri: string, parameters: AuthorizationResponseParameters): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.href;
}
