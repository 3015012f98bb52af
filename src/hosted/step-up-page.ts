/**
 * school-mcp's step-up pages: asking one signed-in person to grant school-mcp more at the school,
 * and the end of that request. Pure.
 */
import { escapeHtml } from './consent-page.js';

export interface StepUpView {
  readonly schoolName: string;
  readonly missing: readonly string[];
  readonly formAction: string;
  readonly csrfToken: string;
}

export function renderStepUpPage(view: StepUpView): string {
  const items = view.missing.map((scope) => `<li><code>${escapeHtml(scope)}</code></li>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Grant school-mcp more at ${escapeHtml(view.schoolName)}?</title></head>
<body>
<h1>Grant school-mcp more at <span id="school-name">${escapeHtml(view.schoolName)}</span>?</h1>
<p>Your assistant asked for something that needs these permissions, which you have not granted yet:</p>
<ul id="missing-scopes">
${items}
</ul>
<p>If you continue, the school asks you to sign in and approve them. Sign in as yourself: a sign-in as anyone else is refused.</p>
<form method="post" action="${escapeHtml(view.formAction)}">
<input type="hidden" name="csrf_token" value="${escapeHtml(view.csrfToken)}">
<button type="submit" name="decision" value="allow">Continue to the school</button>
</form>
</body></html>`;
}

export function renderStepUpDonePage(granted: boolean): string {
  const text = granted ? 'The permission is granted. Go back to your chat and ask again.' : 'Nothing was granted. Go back to your chat.';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>school-mcp</title></head>
<body><h1 id="outcome">${granted ? 'Granted' : 'Not granted'}</h1><p>${text}</p></body></html>`;
}
