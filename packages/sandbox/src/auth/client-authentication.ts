/**
 * Client authentication at the token, revocation and introspection endpoints: public clients
 * identify themselves with `client_id` alone (`none`); confidential clients add `client_secret`
 * in the body (`client_secret_post`, RFC 6749 §2.3.1). Failures are `invalid_client`, 401.
 */
import type { Client } from './client.js';
import { equalSecrets } from './constant-time.js';
import type { ClientRegistry } from './client-registry.js';
import { OAuthError } from './oauth-error.js';
import { requireParameter, type Parameters } from './parameters.js';

export async function authenticateClient(
  request: Request,
  params: Parameters,
  clients: ClientRegistry,
): Promise<Client> {
  const authorization = request.headers.get('authorization');
  if (authorization !== null) {
    // RFC 6749 §5.2: a client that tried an HTTP scheme gets a 401 challenge for that scheme.
    const scheme = authorization.split(' ')[0] ?? 'Basic';
    throw new OAuthError(
      'invalid_client',
      'HTTP client authentication is not supported; send client_id (and client_secret) in the form body',
      {
        headers: { 'www-authenticate': `${scheme} realm="school"` },
      },
    );
  }
  const clientId = requireParameter(params, 'client_id');
  const lookup = await clients.resolve(clientId);
  if (!lookup.ok) throw new OAuthError('invalid_client', 'unknown client');
  const client = lookup.client;
  const secret = params.get('client_secret');
  if (client.tokenEndpointAuthMethod === 'none') {
    if (secret !== undefined) throw new OAuthError('invalid_client', 'this client is public and has no secret');
    return client;
  }
  if (secret === undefined || client.clientSecret === undefined || !equalSecrets(secret, client.clientSecret)) {
    throw new OAuthError('invalid_client', 'client authentication failed');
  }
  return client;
}
