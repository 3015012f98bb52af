/**
 * The browser sent to the school: a fresh random binding in an HttpOnly cookie scoped to the
 * callback, which the school's answer must come back with, to this same browser, and which the
 * callback clears once it has its answer.
 * @see SECURITY.md HOST-09
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { cookieValue, newBrowserBinding } from './browser-binding.js';
import type { InteractionContext } from './interaction-page.js';
import type { StepUp } from './school-sign-in.js';

const BINDING_COOKIE = 'school_mcp_flow';

/** Sends the browser to the school with a fresh binding cookie; `stepUp` for a step-up. */
export async function sendToSchool(
  context: InteractionContext,
  res: ServerResponse,
  uid: string,
  stepUp?: StepUp,
): Promise<void> {
  const binding = newBrowserBinding();
  const schoolUrl = await context.schoolSignIn.start(uid, binding, stepUp);
  res.writeHead(303, {
    location: schoolUrl.href,
    'cache-control': 'no-store',
    // Lax: the school's answer arrives as a top-level navigation from the school's site.
    'set-cookie': `${BINDING_COOKIE}=${binding}; Path=${new URL(context.publicUrl.schoolCallback).pathname}; HttpOnly; SameSite=Lax; Max-Age=600${secureFlag(context)}`,
  });
  res.end();
}

/** The binding the browser came back from the school with. */
export function bindingOf(req: IncomingMessage): string | undefined {
  return cookieValue(req.headers.cookie, BINDING_COOKIE);
}

export function clearBindingCookie(context: InteractionContext): string {
  return `${BINDING_COOKIE}=; Path=${new URL(context.publicUrl.schoolCallback).pathname}; HttpOnly; SameSite=Lax; Max-Age=0${secureFlag(context)}`;
}

function secureFlag(context: InteractionContext): string {
  return context.publicUrl.base.startsWith('https:') ? '; Secure' : '';
}
