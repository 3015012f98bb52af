/**
 * What a registration endpoint answered (RFC 7591 §3.2), read without openid-client: its
 * `dynamicClientRegistration()` fetches the metadata again, and that second copy escapes our
 * origin checks (MD-08). Pure: status, content type and body text in, a decision or a coded
 * error out. The school's `error` and `error_description` are attacker-influenced: the code is
 * kept only when it is an RFC 6749 §5.2 code, the description only in its capped one-line form.
 */
import { errorCodeText, errorDescriptionText, MALFORMED_ERROR } from '../school-text/index.js';
import { OAuthError } from './oauth-error.js';

export type RegistrationAnswer =
  | { kind: 'registered'; metadata: Record<string, unknown> }
  | { kind: 'refused'; error: string; status: number; description?: string };

/** The refusal code as the school sent it when it is a well-formed RFC 6749 §5.2 code. */
function registrationErrorCode(value: unknown): string {
  return errorCodeText(value) ?? MALFORMED_ERROR;
}

function unusable(why: string, status: number): OAuthError {
  return new OAuthError(
    'OAUTH_REGISTRATION_FAILED',
    `The school's registration answer could not be used (HTTP ${status}): ${why}.`,
    {
      hint: 'Try again; if it keeps failing, the school is misconfigured.',
      details: { status, reason: why },
    },
  );
}

function jsonObject(contentType: string, text: string): Record<string, unknown> | undefined {
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType.trim())) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * RFC 7591 §3.2.1 says 201 Created; 200 is accepted too, since some servers answer it and the body
 * is what counts. §3.2.2: a refusal is a 400 with a JSON `error`.
 */
export function readRegistrationAnswer(status: number, contentType: string, text: string): RegistrationAnswer {
  if (status >= 500) {
    throw new OAuthError('OAUTH_SERVER_ERROR', `The school failed while registering this client (HTTP ${status}).`, {
      hint: 'This is on the school side; try again in a moment.',
      details: { status },
    });
  }
  const body = jsonObject(contentType, text);
  if (status === 200 || status === 201) {
    if (!body) throw unusable('not a JSON object', status);
    return { kind: 'registered', metadata: body };
  }
  if (status >= 400 && status < 500 && body && body.error !== undefined) {
    const description = errorDescriptionText(body.error_description);
    return {
      kind: 'refused',
      error: registrationErrorCode(body.error),
      status,
      ...(description ? { description } : {}),
    };
  }
  throw unusable(status >= 300 && status < 400 ? 'a redirect' : 'no OAuth answer', status);
}

/** The error a refusal becomes once nothing more is to be tried. */
export function registrationRefusal(refused: Extract<RegistrationAnswer, { kind: 'refused' }>): OAuthError {
  const details = {
    error: refused.error,
    status: refused.status,
    ...(refused.description ? { description: refused.description } : {}),
  };
  if (refused.error === 'invalid_redirect_uri') {
    return new OAuthError(
      'OAUTH_REDIRECT_URI_REJECTED',
      'The school refused the loopback redirect address at registration.',
      {
        hint: 'This school does not accept loopback redirects (http://127.0.0.1:<port>/callback); use a pre-registered client id.',
        details,
      },
    );
  }
  return new OAuthError(
    'OAUTH_REGISTRATION_FAILED',
    `The school answered ${refused.error} while registering this client.`,
    {
      hint: 'Configure a pre-registered client id (and secret) for this school, or contact the school.',
      details,
    },
  );
}
