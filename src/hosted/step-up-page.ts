/**
 * school-mcp's step-up pages: asking one signed-in person to grant school-mcp more at the school,
 * and the end of that request. Pure.
 */
import type { ConsentReach } from '../consent/index.js';
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

/**
 * The end of a step-up. When the call that asked is waiting for it (a URL elicitation, or an
 * input-required result the client retries), the assistant finishes that call by itself; only a
 * link that came in a tool result needs the person to ask again.
 */
export function renderStepUpDonePage(granted: boolean, reach: ConsentReach): string {
  const next =
    reach === 'call-waits'
      ? 'Go back to your assistant: the request that asked for it finishes on its own.'
      : 'Go back to your chat and ask again.';
  const text = granted ? `The permission is granted. ${next}` : 'Nothing was granted. Go back to your chat.';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>school-mcp</title></head>
<body><h1 id="outcome">${granted ? 'Granted' : 'Not granted'}</h1><p>${text}</p></body></html>`;
}
