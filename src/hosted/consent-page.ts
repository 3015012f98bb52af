/**
 * school-mcp's own consent page, shown before anyone is sent to the school: which client asks
 * (its name, where the answer goes, and for a client named by a metadata document the host that
 * vouches for it, by which the person decides), which school, what the client will be able to do, and
 * Allow / Deny. Every value is escaped; the page loads nothing and runs no script. Pure.
 */
import { isUrlClientId } from './client-metadata-document.js';

export interface HostedConsentView {
  readonly clientName: string | undefined;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly schoolName: string;
  readonly formAction: string;
  readonly csrfToken: string;
}

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );
}

function isLoopback(url: URL): boolean {
  return url.hostname === '127.0.0.1' || url.hostname === '[::1]' || url.hostname === 'localhost';
}

export function renderHostedConsentPage(view: HostedConsentView): string {
  const redirect = new URL(view.redirectUri);
  const where = isLoopback(redirect) ? 'a program on your computer' : 'a web service';
  const name = view.clientName ?? view.clientId;
  // The name is the client's own claim; the host of its metadata document is not (HOST-20).
  const vouchedBy =
    isUrlClientId(view.clientId) && URL.canParse(view.clientId)
      ? `\n<p>This application is described by <strong id="client-id-host">${escapeHtml(new URL(view.clientId).host)}</strong>. Allow it only if you know and trust that site.</p>`
      : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Allow ${escapeHtml(name)} to use ${escapeHtml(view.schoolName)}?</title></head>
<body>
<h1>Allow <span id="client-name">${escapeHtml(name)}</span> to use <span id="school-name">${escapeHtml(view.schoolName)}</span> as you?</h1>
<p>After you allow it, you sign in at the school, which asks you what school-mcp may do there.
<span id="client-name-again">${escapeHtml(name)}</span> will then be able to call the school's API through school-mcp's tools
as you, with no more than what you grant at the school, until you sign out or revoke it.
It never receives your school sign-in itself.</p>
<p>Your answer goes to <strong id="redirect-host">${escapeHtml(redirect.host)}</strong> (${where}).
Client ID: <code>${escapeHtml(view.clientId)}</code></p>${vouchedBy}
<p>If you did not just try to connect an application to school-mcp, choose Deny.</p>
<form method="post" action="${escapeHtml(view.formAction)}">
<input type="hidden" name="csrf_token" value="${escapeHtml(view.csrfToken)}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
</body></html>`;
}

export function renderHostedErrorPage(reason: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>school-mcp: sign-in refused</title></head>
<body><h1>This sign-in cannot go on</h1><p id="error-reason">${escapeHtml(reason)}</p><p>Start again from your application.</p></body></html>`;
}
