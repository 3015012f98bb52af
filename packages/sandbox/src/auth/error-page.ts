/**
 * The page shown instead of a redirect when the client or its redirect URI cannot be trusted
 * (RFC 6749 §4.1.2.1: the server "MUST NOT automatically redirect the user-agent").
 */
import { escapeHtml, renderPage } from './html-page.js';
import { htmlResponse } from './responses.js';

/** Pure: the page's HTML. */
function renderErrorPage(schoolName: string, reason: string): string {
  return renderPage(
    `Authorization failed - ${schoolName}`,
    `<h1>This sign-in request cannot be completed</h1>
<div class="card"><p id="error-reason">${escapeHtml(reason)}</p></div>
<p class="muted">You were not sent back to the application because the request could not be verified. You can close this page.</p>`,
  );
}

export function errorPageResponse(schoolName: string, reason: string, status = 400): Response {
  return htmlResponse(renderErrorPage(schoolName, reason), { status });
}
