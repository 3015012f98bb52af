/**
 * How the authorization server answers: JSON that is never cached (RFC 6749 §5.1 requires
 * `no-store` for anything carrying tokens, and the sandbox applies it to every OAuth answer),
 * HTML pages, and redirects.
 */

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

export function jsonResponse(
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'content-type': 'application/json', ...NO_STORE, ...init.headers },
  });
}

/** A public, cacheable JSON document (metadata, JWKS). */
export function documentResponse(body: unknown): Response {
  return new Response(JSON.stringify(body, null, 2), {
    status: 200,
    headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=60' },
  });
}

export function htmlResponse(html: string, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(html, {
    status: init.status ?? 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      ...NO_STORE,
      // The consent page must not be framed (clickjacking, RFC 6749 §10.13) nor load anything foreign.
      // No form-action: browsers apply it to the redirect that follows the form, i.e. the client's.
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      // same-origin, not no-referrer: the latter makes browsers send `Origin: null` with the consent
      // form, which the decision endpoint must refuse.
      'referrer-policy': 'same-origin',
      ...init.headers,
    },
  });
}

/** A redirect of the user's browser; 303 after a form POST so the browser does not re-send it (RFC 9700 §4.11). */
export function redirectResponse(location: string, status: 302 | 303 = 302): Response {
  return new Response(null, { status, headers: { location, ...NO_STORE } });
}
