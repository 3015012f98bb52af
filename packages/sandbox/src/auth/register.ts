/**
 * `POST /api/oauth/register`: open dynamic client registration (RFC 7591) for loopback clients.
 * A non-loopback redirect URI is refused here, at registration, never later at authorization.
 */
import { toRegistrationResponse } from './client.js';
import { checkClientMetadata } from './client-metadata.js';
import type { ClientRegistry } from './client-registry.js';
import { OAuthError, answerOAuthErrors } from './oauth-error.js';
import { jsonResponse } from './responses.js';

const MAX_BODY_BYTES = 64 * 1024;

export function handleRegistration(registry: ClientRegistry): (request: Request) => Promise<Response> {
  return (request) =>
    answerOAuthErrors(async () => {
      const body = await readJsonBody(request);
      const check = checkClientMetadata(body);
      if (!check.ok) throw new OAuthError(check.error, check.reason);
      const client = registry.register(check.metadata);
      return jsonResponse(toRegistrationResponse(client), { status: 201 });
    });
}

async function readJsonBody(request: Request): Promise<unknown> {
  const contentType = request.headers.get('content-type') ?? '';
  if (contentType.split(';')[0]!.trim().toLowerCase() !== 'application/json') {
    throw new OAuthError('invalid_request', 'the registration request must be application/json (RFC 7591 §3.1)');
  }
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES)
    throw new OAuthError('invalid_client_metadata', 'the registration request is too large');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new OAuthError('invalid_client_metadata', 'the registration request is not valid JSON');
  }
}
