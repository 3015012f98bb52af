/**
 * The page the browser shows after the redirect to our listener. Static: it never reflects a
 * received parameter, loads nothing, and leaks no referrer (LB-07, RFC 9700 §4.2.4). Pure.
 */

export type CallbackPageKind =
  | 'success'
  | 'denied'
  | 'failed'
  | 'invalid'
  | 'not-found'
  | 'method'
  | 'forbidden'
  | 'too-long';

export interface CallbackPage {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const MESSAGES: Record<CallbackPageKind, { status: number; title: string; text: string }> = {
  success: {
    status: 200,
    title: 'Signed in',
    text: 'school-mcp is signed in. You can close this tab and return to your assistant.',
  },
  denied: {
    status: 200,
    title: 'Sign-in cancelled',
    text: 'The request was not approved. You can close this tab; nothing was granted.',
  },
  failed: {
    status: 400,
    title: 'Sign-in failed',
    text: 'The school could not complete the sign-in. You can close this tab and try again.',
  },
  invalid: {
    status: 400,
    title: 'Invalid response',
    text: 'This sign-in response is not valid. You can close this tab.',
  },
  'not-found': { status: 404, title: 'Not found', text: 'Nothing here.' },
  method: { status: 405, title: 'Method not allowed', text: 'Nothing here.' },
  forbidden: { status: 403, title: 'Forbidden', text: 'Nothing here.' },
  'too-long': { status: 414, title: 'Request too long', text: 'This sign-in response is not valid.' },
};

const CALLBACK_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  connection: 'close',
};

export function callbackPage(kind: CallbackPageKind): CallbackPage {
  const { status, title, text } = MESSAGES[kind];
  const body =
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<title>${title}</title><style>body{font:16px system-ui,sans-serif;margin:4em auto;max-width:32em;color:#222}</style>` +
    `</head><body><h1>${title}</h1><p>${text}</p></body></html>`;
  const headers: Record<string, string> = { ...CALLBACK_PAGE_HEADERS };
  if (kind === 'method') headers.allow = 'GET';
  return { status, headers, body };
}
