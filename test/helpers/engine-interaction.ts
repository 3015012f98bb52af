/**
 * The engine's login and consent screens, which node-oidc-provider leaves to the host
 * application: a page with one form per prompt, and its submission, which tells the engine the
 * outcome through `interactionFinished`. A consent grants what the engine says is missing (the
 * OpenID scopes and claims, and the API's scopes per resource indicator), or refuses it all.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { INTERACTION_PREFIX } from './engine-provider.js';

/** The one person who signs in here. */
const ENGINE_USER = 'ada';

interface ConsentDetails {
  missingOIDCScope?: string[];
  missingOIDCClaims?: string[];
  missingResourceScopes?: Record<string, string[]>;
}

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function page(res: ServerResponse, uid: string, prompt: string, asked: string): void {
  const action = `${INTERACTION_PREFIX}${uid}`;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(
    `<!doctype html><title>${prompt}</title><h1>${prompt}</h1><p>${asked}</p>` +
      `<form method="post" action="${action}"><input type="hidden" name="prompt" value="${prompt}">` +
      `<button name="decision" value="allow">Allow</button><button name="decision" value="deny">Deny</button></form>`,
  );
}

/** Handles `GET|POST /interaction/<uid>`; anything else under the prefix is a 404. */
export async function handleInteraction(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const prompt = details.prompt.name;
  if (req.method === 'GET') {
    const consent = details.prompt.details as ConsentDetails;
    const asked =
      prompt === 'consent'
        ? [...(consent.missingOIDCScope ?? []), ...Object.values(consent.missingResourceScopes ?? {}).flat()].join(' ')
        : 'sign in';
    return page(res, details.uid, prompt, asked);
  }
  const form = await formOf(req);
  if (form.get('decision') !== 'allow') {
    return provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'the user said no' },
      { mergeWithLastSubmission: false },
    );
  }
  if (prompt === 'login') {
    return provider.interactionFinished(
      req,
      res,
      { login: { accountId: ENGINE_USER } },
      { mergeWithLastSubmission: false },
    );
  }
  const missing = details.prompt.details as ConsentDetails;
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({
        accountId: details.session?.accountId ?? ENGINE_USER,
        clientId: String(details.params['client_id']),
      });
  if (!grant) throw new Error('the grant of this interaction is gone');
  if (missing.missingOIDCScope?.length) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims?.length) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
