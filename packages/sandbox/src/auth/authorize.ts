/**
 * `GET /oauth/authorize` and the consent form's `POST /oauth/consent` (RFC 6749 §4.1.1-4.1.2).
 */
import { SANDBOX_SCHOOL, SANDBOX_USER, type StaffMember } from '../school-user.js';
import { displayName } from './client.js';
import { checkAuthorizationRequest, type AuthorizationRequest } from './authorization-request.js';
import { buildAuthorizationRedirect } from './authorization-response.js';
import { renderConsentPage } from './consent-page.js';
import { responseIssuer, type AuthContext } from './context.js';
import { errorPageResponse } from './error-page.js';
import { OAuthError } from './oauth-error.js';
import { readFormParameters } from './parameters.js';
import { PATHS } from './paths.js';
import { htmlResponse, redirectResponse } from './responses.js';

const CONSENT_COOKIE_PREFIX = 'sandbox_consent_';

export function handleAuthorize(context: AuthContext): (request: Request) => Promise<Response> {
  return async (request) => {
    const search = new URL(request.url).searchParams;
    const clientIds = search.getAll('client_id');
    const lookup =
      clientIds.length === 1 && clientIds[0] !== ''
        ? await context.clients.resolve(clientIds[0]!)
        : { ok: false as const, reason: 'missing client_id' };
    const check = checkAuthorizationRequest(search, lookup, {
      exactRedirectPort: context.settings.exactRedirectPort,
      resource: context.resource,
    });
    switch (check.kind) {
      case 'error-page':
        return errorPageResponse(SANDBOX_SCHOOL.name, check.reason);
      case 'redirect-error':
        return redirectResponse(
          buildAuthorizationRedirect(check.redirectUri, {
            error: check.error,
            error_description: check.description,
            state: check.state,
            iss: responseIssuer(context),
          }),
        );
      case 'valid':
        if (context.settings.autoApprove) return redirectResponse(approve(context, check.request, SANDBOX_USER));
        return consentPage(context, check.request);
    }
  };
}

export function handleConsentDecision(context: AuthContext): (request: Request) => Promise<Response> {
  return async (request) => {
    const origin = request.headers.get('origin');
    if (origin !== null && origin !== new URL(context.issuer).origin) {
      return errorPageResponse(SANDBOX_SCHOOL.name, 'the consent form was submitted from another site', 403);
    }
    const form = await readFormParameters(request).catch((error: unknown) => {
      if (error instanceof OAuthError) return undefined;
      throw error;
    });
    const decision = form?.get('decision');
    if (!form || (decision !== 'allow' && decision !== 'deny')) {
      return errorPageResponse(
        SANDBOX_SCHOOL.name,
        'the consent form must be posted with decision=allow or decision=deny',
      );
    }
    const id = form.get('interaction') ?? '';
    const interaction = context.interactions.take(
      id,
      form.get('csrf_token') ?? '',
      readCookie(request, CONSENT_COOKIE_PREFIX + id),
    );
    if (!interaction) {
      return errorPageResponse(
        SANDBOX_SCHOOL.name,
        'this consent request has expired, was already answered, or its form was not genuine; start the sign-in again',
      );
    }
    const { request: authorization } = interaction;
    // The person at the browser says who they are; a form without the field is the default user.
    const chosen = form.get('user');
    const user = chosen === undefined ? SANDBOX_USER : context.settings.staff.find((member) => member.sub === chosen);
    if (!user)
      return errorPageResponse(SANDBOX_SCHOOL.name, 'there is no staff member with that id; start the sign-in again');
    const location =
      decision === 'allow'
        ? approve(context, authorization, user)
        : buildAuthorizationRedirect(authorization.redirectUri, {
            error: 'access_denied',
            error_description: 'the user denied the request',
            state: authorization.state,
            iss: responseIssuer(context),
          });
    const response = redirectResponse(location, 303);
    response.headers.append(
      'set-cookie',
      `${CONSENT_COOKIE_PREFIX}${id}=; Path=${PATHS.consent}; Max-Age=0; HttpOnly; SameSite=Strict`,
    );
    return response;
  };
}

/** Issues the code and returns the redirect that carries it. */
function approve(context: AuthContext, request: AuthorizationRequest, user: StaffMember): string {
  context.grants.recordConsent(request.client.clientId, user.sub, request.scopes);
  const code = context.grants.issueCode({
    clientId: request.client.clientId,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    scopes: request.scopes,
    resource: request.resource,
    subject: user.sub,
    nonce: request.nonce,
  });
  return buildAuthorizationRedirect(request.redirectUri, { code, state: request.state, iss: responseIssuer(context) });
}

function consentPage(context: AuthContext, request: AuthorizationRequest): Response {
  // Read before this request is approved, so only earlier grants are marked; they are the default
  // user's, who is preselected.
  const previouslyGranted = context.grants.consentedScopes(request.client.clientId, SANDBOX_USER.sub);
  const interaction = context.interactions.create(request);
  const html = renderConsentPage({
    schoolName: SANDBOX_SCHOOL.name,
    user: SANDBOX_USER,
    staff: context.settings.staff,
    clientName: displayName(request.client),
    clientId: request.client.clientId,
    redirectUri: request.redirectUri,
    redirectIsLoopback: request.client.source !== 'integration',
    scopes: request.scopes,
    previouslyGranted,
    formAction: PATHS.consent,
    interactionId: interaction.id,
    csrfToken: interaction.csrfToken,
  });
  // The cookie binds the form to the browser that loaded it (double submit), so a page elsewhere
  // cannot post a decision for a request it started itself.
  const cookie = `${CONSENT_COOKIE_PREFIX}${interaction.id}=${interaction.csrfToken}; Path=${PATHS.consent}; HttpOnly; SameSite=Strict`;
  return htmlResponse(html, { headers: { 'set-cookie': cookie } });
}

function readCookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}
