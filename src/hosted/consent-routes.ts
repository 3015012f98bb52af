/**
 * school-mcp's consent page (`GET|POST /consent/<uid>`) and the end of the interaction
 * (`GET /consent/<uid>/finish`), both only in the browser that started the interaction: the page
 * shows the client and, on Allow, sends the browser to the school; the end turns the school's
 * answer into the MCP client's grant, or its refusal.
 * @see SECURITY.md HOST-06, HOST-34
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_SCOPE, HOSTED_PATHS } from './authorization-server.js';
import { consentFormToken, equalDigests } from './browser-binding.js';
import { renderHostedConsentPage } from './consent-page.js';
import { takeRecord } from '../grant-store/index.js';
import { CONSENT_RESULT_RECORD } from './consent-result.js';
import { readForm, refuseForm, refuseWithPage, sendPage, type InteractionContext } from './interaction-page.js';
import { generationOf } from './person-generation.js';
import { isOwnResource } from './resource-indicator.js';
import { sendToSchool } from './school-redirect.js';
import { isStoreUnavailable } from './store-outage.js';

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
    return refuseWithPage(res, context, 400, 'this sign-in was not started in this browser, or it has expired');
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

export async function handleConsentFinish(
  context: InteractionContext,
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
): Promise<void> {
  const details = await detailsOf(context, req, res, uid);
  if (details === undefined)
    return refuseWithPage(res, context, 400, 'this sign-in was not started in this browser, or it has expired');
  const result = await takeRecord(context.store, CONSENT_RESULT_RECORD, uid);
  if (result === undefined) return refuseWithPage(res, context, 400, 'the school has not answered this sign-in');
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
