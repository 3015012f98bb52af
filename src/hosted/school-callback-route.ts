/**
 * The school's answer (`GET /oauth/callback`), to a sign-in or a step-up, from the browser the
 * binding cookie was set in: a sign-in's answer is kept for the end of its interaction, a
 * step-up's ends its flow for the calls waiting on it.
 * @see SECURITY.md HOST-09, HOST-60
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { flowId } from '../consent/index.js';
import { HOSTED_PATHS } from './authorization-server.js';
import { CONSENT_RESULTS, type ConsentResult } from './consent-result.js';
import { refuseWithPage, sendPage, type InteractionContext } from './interaction-page.js';
import { bindingOf, clearBindingCookie } from './school-redirect.js';
import { readRecord } from '../grant-store/index.js';
import {
  remainingTtlSeconds,
  STEP_UP_FLOW_RECORD,
  STEP_UP_FLOWS,
  stepUpLink,
  type StepUpFlow,
} from './step-up-record.js';
import { renderStepUpDonePage } from './step-up-page.js';

export async function handleSchoolCallback(
  context: InteractionContext,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', context.publicUrl.base);
  const outcome = await context.schoolSignIn.finish(url, bindingOf(req));
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
    return refuseWithPage(res, context, 400, outcome.reason);
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
  await context.store.write(CONSENT_RESULTS, outcome.uid, { ...result }, { ttlSeconds: 600 });
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
    await context.store.write(
      STEP_UP_FLOWS,
      key,
      { ...flow, ended: answer },
      {
        ttlSeconds,
      },
    );
  }
  return flow;
}
