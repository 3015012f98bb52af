/**
 * The discovery documents: Authorization Server Metadata (RFC 8414), the same document at the
 * OpenID Connect discovery path (so the two cannot disagree), and Protected Resource Metadata
 * (RFC 9728) for the business API.
 */
import { ALL_SCOPES } from '../scopes.js';
import { SANDBOX_SCHOOL } from '../school-user.js';
import type { AuthFaultOptions } from './options.js';
import { PATHS } from './paths.js';

/** Pure: the authorization server's metadata document, fault knobs applied. */
export function buildAuthorizationServerMetadata(
  issuer: string,
  faults: AuthFaultOptions = {},
): Record<string, unknown> {
  const at = (path: string) => `${issuer}${path}`;
  return {
    issuer: faults.wrongIssuerInMetadata ?? issuer,
    authorization_endpoint: at(PATHS.authorization),
    token_endpoint: at(PATHS.token),
    registration_endpoint: at(PATHS.registration),
    userinfo_endpoint: at(PATHS.userinfo),
    revocation_endpoint: at(PATHS.revocation),
    introspection_endpoint: at(PATHS.introspection),
    jwks_uri: at(PATHS.jwks),
    scopes_supported: [...ALL_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    ...(faults.omitS256FromMetadata ? {} : { code_challenge_methods_supported: ['S256'] }),
    token_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
    introspection_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    claims_supported: [
      'sub',
      'iss',
      'aud',
      'exp',
      'iat',
      'auth_time',
      'nonce',
      'name',
      'email',
      'email_verified',
      'org_id',
      'roles',
    ],
    service_documentation: at(PATHS.authMd),
  };
}

/** Pure: the business API's RFC 9728 document. */
export function buildProtectedResourceMetadata(issuer: string, resource: string): Record<string, unknown> {
  return {
    resource,
    authorization_servers: [issuer],
    scopes_supported: [...ALL_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: SANDBOX_SCHOOL.name,
    resource_documentation: `${issuer}${PATHS.authMd}`,
  };
}

export function protectedResourceMetadataUrl(issuer: string): string {
  return `${issuer}${PATHS.protectedResourceMetadata}`;
}
