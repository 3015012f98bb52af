/**
 * The address a user pastes after approving the sign-in on another machine (BR-04c). Pure.
 * Only its query is taken, and it is sent to our own redirect URI, so a pasted address can never
 * make us request anything but our one-shot listener, which then runs the very same `iss` and
 * `state` checks as for a browser redirect (CB-01..CB-03).
 */

export type PastedRedirect = { ok: true; deliverTo: string } | { ok: false; reason: string };

export function pastedRedirect(text: string, redirectUri: string): PastedRedirect {
  const cleaned = text.trim().replace(/^["'<]+|[>"']+$/g, '');
  if (cleaned.length === 0) return { ok: false, reason: 'nothing was pasted' };
  let pasted: URL;
  try {
    pasted = new URL(cleaned);
  } catch {
    return { ok: false, reason: 'it is not a web address' };
  }
  const expected = new URL(redirectUri);
  if (pasted.protocol !== expected.protocol || pasted.host !== expected.host || pasted.pathname !== expected.pathname) {
    return { ok: false, reason: `it does not start with ${redirectUri}` };
  }
  if (pasted.search.length <= 1) return { ok: false, reason: 'it carries no sign-in answer' };
  return { ok: true, deliverTo: `${redirectUri}${pasted.search}` };
}

/** The redirect URI the authorization URL names (we built that URL ourselves). */
export function redirectUriOf(authorizationUrl: string): string | undefined {
  try {
    return new URL(authorizationUrl).searchParams.get('redirect_uri') ?? undefined;
  } catch {
    return undefined;
  }
}
