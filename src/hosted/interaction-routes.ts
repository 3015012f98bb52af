/**
 * The pages between an MCP client's authorization request and its code: school-mcp's consent
 * (`GET|POST /consent/<uid>`), the school's answer (`GET /oauth/callback`), and the end of the
 * interaction (`GET /consent/<uid>/finish`). node-oidc-provider's interaction cookie, scoped to
 * `/consent/<uid>`, ties every step to the browser that started it; a second cookie, scoped to the
 * callback, ties the school's answer to it too. The step-up page (`GET|POST /step-up/<id>`) sends a
 * signed-in person back to the school for more, through the same callback.
 * @see SECURITY.md HOST-06, HOST-09, HOST-15
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { AuditLog } from '../audit/index.js';
import { flowId } from '../consent/index.js';
import {
  isText,
  objectWith,
  optional,
  readRecord,
  takeRecord,
  type GrantStore,
  type RecordKind,
} from '../grant-store/index.js';
import type { Logger } from '../log.js';
import { BODY_CAPS, mediaTypeOf } from '../network/index.js';
import { MCP_SCOPE, HOSTED_PATHS } from './authorization-server.js';
import { generationOf } from './person-generation.js';
import { consentFormToken, cookieValue, equalDigests, newBrowserBinding } from './browser-binding.js';
import { renderHostedConsentPage, renderHostedErrorPage } from './consent-page.js';
import type { PublicUrl } from './public-url.js';
import { isOwnResource } from './resource-indicator.js';
import type { SchoolSignIn, StepUp } from './school-sign-in.js';
import {
  PENDING_STEP_UP_RECORD,
  remainingTtlSeconds,
  STEP_UP_FLOW_RECORD,
  STEP_UP_FLOWS,
  STEP_UP_PREFIX,
  stepUpLink,
  type StepUpFlow,
} from './step-up-record.js';
import { renderStepUpDonePage, renderStepUpPage } from './step-up-page.js';
import { isStoreUnavailable } from './store-outage.js';

const BINDING_COOKIE = 'school_mcp_flow';
const RESULTS = 'consent-result';
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

interface ConsentResult {
  readonly sub?: string;
  /** The person's sign-in generation when their school grant was settled. */
  readonly generation?: string;
  readonly error?: string;
}

const isResultFields = objectWith({ sub: optional(isText), generation: optional(isText), error: optional(isText) });

/** A sign-in's result as the store gives it back (ST-17): a person who signed in, or an error. */
export const CONSENT_RESULT_RECORD: RecordKind<ConsentResult> = {
  namespace: RESULTS,
  check: (value): value is ConsentResult =>
    isResultFields(value) && (value.sub !== undefined || value.error !== undefined),
};

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

function sendPage(res: ServerResponse, context: InteractionContext, status: number, html: string): void {
  res.writeHead(status, pageHeaders(context));
  res.end(html);
}

function refuse(res: ServerResponse, context: InteractionContext, status: number, reason: string): void {
  context.logger.debug('refused a sign-in step', { status, reason });
  sendPage(res, context, status, renderHostedErrorPage(reason));
}

/** A refused consent or step-up form: the refusal is recorded, since a forged or replayed form is what an audit looks for. */
function refuseForm(
  res: ServerResponse,
  context: InteractionContext,
  status: number,
  reason: string,
  event: 'consent' | 'step_up',
  who: { readonly clientId?: string; readonly sub?: string },
): void {
  context.audit.record({ event, outcome: 'refused', reason, ...who });
  refuse(res, context, status, reason);
}

function secureFlag(context: InteractionContext): string {
  return context.publicUrl.base.startsWith('https:') ? '; Secure' : '';
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
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

/** The interaction of this browser, or `undefined` when the browser has none (or another one's). */
async function detailsOf(context: InteractionContext, req: IncomingMessage, res: ServerResponse, uid: string) {
  try {
    const details = await context.provider.interactionDetails(req, res);
    return details.uid === uid ? details : undefined;
  } catch (error) {
    // The store away is not a stranger's browser: the request is answered 503 and can be retried.
    if (isStoreUnavailable(error)) throw error;
    return undefined;
  }
}

export async function handleConsentPage(
  context: InteractionContext,
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
): Promise<void> {
  const details = await detailsOf(context, req, res, uid);
  if (details === undefined && req.method === 'POST')
    return refuseForm(
      res,
      context,
      400,
      'this sign-in was not started in this browser, or it has expired',
      'consent',
      {},
    );
  if (details === undefined)
    return refuse(res, context, 400, 'this sign-in was not started in this browser, or it has expired');
  const clientId = String(details.params['client_id']);
  if (req.method === 'GET') {
    const client = await context.provider.Client.find(clientId);
    return sendPage(
      res,
      context,
      200,
      renderHostedConsentPage({
        clientName: client?.clientName,
        clientId,
        redirectUri: String(details.params['redirect_uri']),
        schoolName: context.schoolUrl.host,
        formAction: `${context.publicUrl.path}${HOSTED_PATHS.consentPrefix}${uid}`,
        csrfToken: consentFormToken(context.formKey, uid),
      }),
    );
  }
  const origin = req.headers['origin'];
  if (origin !== undefined && origin !== new URL(context.publicUrl.base).origin)
    return refuseForm(res, context, 403, 'the consent form was sent from another site', 'consent', { clientId });
  const form = await readForm(req);
  if (form === undefined || !equalDigests(form.get('csrf_token') ?? '', consentFormToken(context.formKey, uid))) {
    return refuseForm(res, context, 403, 'the consent form was not the one this server showed', 'consent', {
      clientId,
    });
  }
  const decision = form.get('decision');
  if (decision === 'deny') {
    context.audit.record({ event: 'consent', outcome: 'denied', clientId });
    return context.provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'the user denied the request at school-mcp' },
      { mergeWithLastSubmission: false },
    );
  }
  if (decision !== 'allow')
    return refuseForm(res, context, 400, 'the consent form must say allow or deny', 'consent', { clientId });
  context.audit.record({ event: 'consent', outcome: 'allowed', clientId });
  return sendToSchool(context, res, uid);
}

export async function handleSchoolCallback(
  context: InteractionContext,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', context.publicUrl.base);
  const outcome = await context.schoolSignIn.finish(url, cookieValue(req.headers.cookie, BINDING_COOKIE));
  if (outcome.kind === 'refused') {
    // school-mcp's words only: what follows a colon may quote the school's answer.
    context.audit.record({ event: 'sign_in', outcome: 'refused', reason: outcome.reason.split(':', 1)[0] });
    // Someone else signed in at the school with a step-up's link: the calls waiting on it end now
    // instead of waiting out their time, and its person asks again (HOST-60).
    if (outcome.stepUp !== undefined) {
      context.audit.record({
        event: 'step_up',
        outcome: 'refused',
        sub: outcome.stepUp.sub,
        scopes: outcome.stepUp.scopes,
      });
      await endStepUp(context, outcome.stepUp.id, 'other-person');
    }
    return refuse(res, context, 400, outcome.reason);
  }
  if (outcome.kind === 'ask-again') {
    // The binding cookie stays: the school's next answer must come back to this same browser.
    res.writeHead(303, { location: outcome.location.href, 'cache-control': 'no-store' });
    res.end();
    return;
  }
  if (outcome.stepUp !== undefined) {
    context.audit.record({
      event: 'step_up',
      outcome: outcome.kind === 'signed-in' ? 'granted' : 'refused',
      sub: outcome.stepUp.sub,
      scopes: outcome.stepUp.scopes,
    });
    const flow = await endStepUp(context, outcome.stepUp.id, outcome.kind === 'signed-in' ? 'granted' : 'denied');
    res.setHeader('set-cookie', clearBindingCookie(context));
    return sendPage(res, context, 200, renderStepUpDonePage(outcome.kind === 'signed-in', flow?.reach ?? 'ask-again'));
  }
  const result: ConsentResult =
    outcome.kind === 'signed-in'
      ? { sub: outcome.grant.sub, generation: outcome.generation }
      : { error: outcome.error };
  await context.store.write(RESULTS, outcome.uid, { ...result }, { ttlSeconds: 600 });
  res.writeHead(303, {
    location: `${context.publicUrl.path}${HOSTED_PATHS.consentPrefix}${outcome.uid}/finish`,
    'cache-control': 'no-store',
    'set-cookie': clearBindingCookie(context),
  });
  res.end();
}

/**
 * The school answered a step-up: a denial, or another person's sign-in, ends its flow for the calls
 * waiting on it (a grant they see in the person's grant); the flow also says whether a call waits,
 * for the page's words.
 */
async function endStepUp(
  context: InteractionContext,
  id: string,
  answer: 'granted' | NonNullable<StepUpFlow['ended']>,
): Promise<StepUpFlow | undefined> {
  const key = flowId(stepUpLink(context.publicUrl.base, id));
  const flow = await readRecord(context.store, STEP_UP_FLOW_RECORD, key);
  const ttlSeconds = flow === undefined ? undefined : remainingTtlSeconds(flow, Date.now());
  if (answer !== 'granted' && flow !== undefined && ttlSeconds !== undefined) {
    await context.store.write(STEP_UP_FLOWS, key, { ...flow, ended: answer }, { ttlSeconds });
  }
  return flow;
}

function clearBindingCookie(context: InteractionContext): string {
  return `${BINDING_COOKIE}=; Path=${new URL(context.publicUrl.schoolCallback).pathname}; HttpOnly; SameSite=Lax; Max-Age=0${secureFlag(context)}`;
}

/** Sends the browser to the school with a fresh binding cookie; `stepUp` for a step-up. */
async function sendToSchool(
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

/**
 * `GET|POST /step-up/<id>`: the page behind a step-up link, which only the tool result of the
 * person who needs it carries. The school must sign that same person in (see school-sign-in.ts).
 */
export async function handleStepUp(
  context: InteractionContext,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
): Promise<void> {
  const pending = await readRecord(context.store, PENDING_STEP_UP_RECORD, id);
  if (pending === undefined)
    return refuse(res, context, 400, 'this link has expired or was already used; ask your assistant again');
  const csrfToken = consentFormToken(context.formKey, `step-up\0${id}`);
  if (req.method === 'GET') {
    return sendPage(
      res,
      context,
      200,
      renderStepUpPage({
        schoolName: context.schoolUrl.host,
        missing: pending.missing,
        formAction: `${context.publicUrl.path}${STEP_UP_PREFIX}${id}`,
        csrfToken,
      }),
    );
  }
  const origin = req.headers['origin'];
  if (origin !== undefined && origin !== new URL(context.publicUrl.base).origin)
    return refuseForm(res, context, 403, 'the form was sent from another site', 'step_up', { sub: pending.sub });
  const form = await readForm(req);
  if (form === undefined || !equalDigests(form.get('csrf_token') ?? '', csrfToken))
    return refuseForm(res, context, 403, 'the form was not the one this server showed', 'step_up', {
      sub: pending.sub,
    });
  const taken = await takeRecord(context.store, PENDING_STEP_UP_RECORD, id);
  if (taken === undefined)
    return refuseForm(res, context, 400, 'this link was already used', 'step_up', { sub: pending.sub });
  return sendToSchool(context, res, '', { id, sub: taken.sub, scopes: taken.scopes });
}

export async function handleConsentFinish(
  context: InteractionContext,
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
): Promise<void> {
  const details = await detailsOf(context, req, res, uid);
  if (details === undefined)
    return refuse(res, context, 400, 'this sign-in was not started in this browser, or it has expired');
  const result = await takeRecord(context.store, CONSENT_RESULT_RECORD, uid);
  if (result === undefined) return refuse(res, context, 400, 'the school has not answered this sign-in');
  const clientId = String(details.params['client_id']);
  if (result.sub === undefined) {
    context.audit.record({ event: 'sign_in', outcome: 'denied', clientId, error: result.error ?? 'access_denied' });
    return context.provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'the user did not sign in at the school' },
      { mergeWithLastSubmission: false },
    );
  }
  const grant = new context.provider.Grant({ accountId: result.sub, clientId });
  // The engine looks a grant's resource up by the indicator as the client spelled it, which the
  // authorization request already passed through the resource rule (`resource-indicator.ts`).
  const resources = [details.params['resource']]
    .flat()
    .filter(
      (resource): resource is string => typeof resource === 'string' && isOwnResource(context.publicUrl, resource),
    );
  for (const resource of resources.length > 0 ? resources : [context.publicUrl.base])
    grant.addResourceScope(resource, MCP_SCOPE);
  // The engine counts a requested scope it knows as an OpenID one too; grant what was asked of those.
  const scope = details.params['scope'];
  const requested = typeof scope === 'string' ? scope.split(' ') : [];
  const oidcScopes = requested.filter((scope) => scope === 'openid' || scope === MCP_SCOPE);
  if (oidcScopes.length > 0) grant.addOIDCScope(oidcScopes.join(' '));
  const grantId = await grant.save();
  // The adapter stamped the grant with the person's generation as it saved it. Still the one read
  // when their school grant was settled, the stamp is that one; another, the person signed out (on
  // another client) since, and this grant must not outlive that sign-out (HOST-34). A result
  // without one, written by an instance of an earlier version during an upgrade, is let through.
  if (result.generation !== undefined && (await generationOf(context.store, result.sub)) !== result.generation) {
    await context.provider.Grant.adapter.destroy(grantId);
    return context.provider.interactionFinished(
      req,
      res,
      {
        error: 'access_denied',
        error_description: 'the person signed out while this sign-in was under way; sign in again',
      },
      { mergeWithLastSubmission: false },
    );
  }
  context.audit.record({ event: 'sign_in', outcome: 'ok', sub: result.sub, clientId });
  return context.provider.interactionFinished(
    req,
    res,
    { login: { accountId: result.sub }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}
