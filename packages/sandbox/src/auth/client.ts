/**
 * A client known to the authorization server: registered dynamically (RFC 7591), described by a
 * Client ID Metadata Document fetched from its `client_id` URL, or a registered integration: a
 * confidential client with a fixed callback that the school's staff set up, not open registration.
 */

export type TokenEndpointAuthMethod = 'none' | 'client_secret_post';
export type GrantType = 'authorization_code' | 'refresh_token';

export interface Client {
  readonly clientId: string;
  /** Present for confidential clients (`client_secret_post`). */
  readonly clientSecret: string | undefined;
  readonly clientName: string | undefined;
  readonly applicationType: 'native' | 'web';
  readonly redirectUris: readonly string[];
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  readonly grantTypes: readonly GrantType[];
  /** Seconds since the epoch. */
  readonly clientIdIssuedAt: number;
  readonly source: 'registration' | 'metadata-document' | 'integration';
}

/** What the consent page calls the client: its own name, else its identifier. */
export function displayName(client: Client): string {
  return client.clientName ?? client.clientId;
}

/** Pure: the RFC 7591 §3.2.1 registration response: the identifier plus the metadata as registered. */
export function toRegistrationResponse(client: Client): Record<string, unknown> {
  return {
    client_id: client.clientId,
    client_id_issued_at: client.clientIdIssuedAt,
    ...(client.clientSecret === undefined ? {} : { client_secret: client.clientSecret, client_secret_expires_at: 0 }),
    ...(client.clientName === undefined ? {} : { client_name: client.clientName }),
    application_type: client.applicationType,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    grant_types: client.grantTypes,
    response_types: ['code'],
  };
}
