/**
 * The pages between an MCP client's authorization request and its code: school-mcp's consent
 * (`GET|POST /consent/<uid>`), the school's answer (`GET /oauth/callback`), and the end of the
 * interaction (`GET /consent/<uid>/finish`). node-oidc-provider's interaction cookie, scoped to
 * `/consent/<uid>`, ties every step to the browser that started it; a second cookie, scoped to the
 * callback, ties the school's answer to it too. The step-up page (`GET|POST /step-up/<id>`) sends a
 * signed-in person back to the school for more, through the same callback. Here: what those pages
 * run with, and how each of them answers, refuses and reads its form.
 * @see SECURITY.md HOST-06, HOST-09, HOST-15
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { AuditLog } from '../audit/index.js';
import type { GrantStore } from '../grant-store/index.js';
import type { Logger } from '../log.js';
import { BODY_CAPS, mediaTypeOf } from '../network/index.js';
import { renderHostedErrorPage } from './consent-page.js';
import type { PublicUrl } from './public-url.js';
import type { SchoolSignIn } from './school-sign-in.js';

const MAX_FORM_BYTES = BODY_CAPS.consentForm;

export interface InteractionContext {
  readonly provider: Provider;
  readonly store: GrantStore;
  readonly publicUrl: PublicUrl;
  readonly schoolSignIn: SchoolSignIn;
  readonly schoolUrl: URL;
  /** Derives the consent forms' CSRF tokens. */
  readonly formKey: string;
  readonly logger: Pick<Logger, 'warn' | 'debug'>;
  readonly audit: AuditLog;
}

function pageHeaders(context: InteractionContext): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // same-origin, not no-referrer: under no-referrer Chromium sends `Origin: null` with the form,
    // and the form's own origin is what the consent check compares.
    'referrer-policy': 'same-origin',
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    // The consent form's answer is redirected to the school: form-action must allow it (Chromium checks redirects).
    'content-security-policy': `default-src 'none'; form-action 'self' ${context.schoolUrl.origin}; frame-ancestors 'none'; base-uri 'none'`,
  };
}

export function sendPage(res: ServerResponse, context: InteractionContext, status: number, html: string): void {
  res.writeHead(status, pageHeaders(context));
  res.end(html);
}

export function refuseWithPage(res: ServerResponse, context: InteractionContext, status: number, reason: string): void {
  context.logger.debug('refused a sign-in step', { status, reason });
  sendPage(res, context, status, renderHostedErrorPage(reason));
}

/** A refused consent or step-up form: the refusal is recorded, since a forged or replayed form is what an audit looks for. */
export function refuseForm(
  res: ServerResponse,
  context: InteractionContext,
  status: number,
  reason: string,
  event: 'consent' | 'step_up',
  who: { readonly clientId?: string; readonly sub?: string },
): void {
  context.audit.record({ event, outcome: 'refused', reason, ...who });
  refuseWithPage(res, context, status, reason);
}

export async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  if (mediaTypeOf(req.headers['content-type']) !== 'application/x-www-form-urlencoded') return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
