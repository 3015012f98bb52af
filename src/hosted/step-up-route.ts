/**
 * `GET|POST /step-up/<id>`: the page behind a step-up link, which only the tool result of the
 * person who needs it carries. The school must sign that same person in (see school-sign-in.ts).
 * @see SECURITY.md HOST-15, HOST-06
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { consentFormToken, equalDigests } from './browser-binding.js';
import { readForm, refuseForm, refuseWithPage, sendPage, type InteractionContext } from './interaction-page.js';
import { sendToSchool } from './school-redirect.js';
import { readRecord, takeRecord } from '../grant-store/index.js';
import { PENDING_STEP_UP_RECORD, STEP_UP_PREFIX } from './step-up-record.js';
import { renderStepUpPage } from './step-up-page.js';

export async function handleStepUp(
  context: InteractionContext,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
): Promise<void> {
  const pending = await readRecord(context.store, PENDING_STEP_UP_RECORD, id);
  if (pending === undefined)
    return refuseWithPage(res, context, 400, 'this link has expired or was already used; ask your assistant again');
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
