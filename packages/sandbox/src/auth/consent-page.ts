/**
 * The consent page: who signs in (a pick of the school's staff, the first preselected), which application asks, where the answer will be sent
 * (the redirect host, as the MCP authorization spec requires an AS to show for loopback
 * clients), every requested scope in words with earlier grants marked, and Allow / Deny.
 */
import { SCOPES, type Scope } from '../scopes.js';
import { escapeHtml, renderPage } from './html-page.js';

export interface ConsentView {
  readonly schoolName: string;
  /** Preselected; whose earlier grants `previouslyGranted` holds. */
  readonly user: { readonly sub: string; readonly name: string; readonly email: string };
  readonly staff: readonly {
    readonly sub: string;
    readonly name: string;
    readonly email: string;
    readonly roles: readonly string[];
  }[];
  readonly clientName: string;
  readonly clientId: string;
  readonly redirectUri: string;
  /** A program on this computer (loopback), or a web service (a registered integration). */
  readonly redirectIsLoopback: boolean;
  readonly scopes: readonly Scope[];
  readonly previouslyGranted: ReadonlySet<string>;
  readonly formAction: string;
  readonly interactionId: string;
  readonly csrfToken: string;
}

/** Pure: the page's HTML. */
export function renderConsentPage(view: ConsentView): string {
  const redirect = new URL(view.redirectUri);
  const scopeItems = view.scopes
    .map((scope) => {
      const granted = view.previouslyGranted.has(scope) ? '<span class="granted">(already granted)</span>' : '';
      return `<li data-scope="${escapeHtml(scope)}"${view.previouslyGranted.has(scope) ? ' data-granted="true"' : ''}>${escapeHtml(SCOPES[scope])} <code>${escapeHtml(scope)}</code>${granted}</li>`;
    })
    .join('\n');
  const staffOptions = view.staff
    .map(
      (member) =>
        `<option value="${escapeHtml(member.sub)}"${member.sub === view.user.sub ? ' selected' : ''}>${escapeHtml(member.name)} (${escapeHtml(member.roles.join(', '))})</option>`,
    )
    .join('\n');
  const newCount = view.scopes.filter((scope) => !view.previouslyGranted.has(scope)).length;
  return renderPage(
    `Allow access to ${view.schoolName}?`,
    `<h1>Allow <span id="client-name">${escapeHtml(view.clientName)}</span> to access ${escapeHtml(view.schoolName)}?</h1>
<form method="post" action="${escapeHtml(view.formAction)}">
<p>Signing in as <strong id="user-name">${escapeHtml(view.user.name)}</strong> <span class="muted">(${escapeHtml(view.user.email)})</span>, or as another member of staff:</p>
<p><label for="user">Staff member</label> <select id="user" name="user">
${staffOptions}
</select></p>
<div class="card">
  <p>The application will be able to:</p>
  <ul class="scopes">
${scopeItems}
  </ul>
  <p class="muted">${newCount === 0 ? 'You granted all of these before.' : `${newCount} of ${view.scopes.length} ${view.scopes.length === 1 ? 'permission is' : 'permissions are'} new.`}</p>
</div>
<p class="muted">After you decide, you will be sent to <strong id="redirect-host">${escapeHtml(redirect.host)}</strong> (${view.redirectIsLoopback ? 'a program on this computer' : 'a web service'}).
Client ID: <code>${escapeHtml(view.clientId)}</code></p>
  <input type="hidden" name="interaction" value="${escapeHtml(view.interactionId)}">
  <input type="hidden" name="csrf_token" value="${escapeHtml(view.csrfToken)}">
  <div class="actions">
    <button type="submit" name="decision" value="allow" class="allow">Allow</button>
    <button type="submit" name="decision" value="deny">Deny</button>
  </div>
</form>`,
  );
}
