import { describe, expect, it } from 'vitest';
import {
  buildAuthorizationServerMetadata,
  buildProtectedResourceMetadata,
} from '../../../packages/sandbox/src/auth/metadata.js';
import { ALL_SCOPES } from '../../../packages/sandbox/src/scopes.js';

const ISSUER = 'http://127.0.0.1:4000';

describe('metadata documents', () => {
  it('PLAT-10 advertises S256, revocation, registration and every endpoint under the issuer', () => {
    const metadata = buildAuthorizationServerMetadata(ISSUER);
    expect(metadata.issuer).toBe(ISSUER);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.authorization_endpoint).toBe(`${ISSUER}/oauth/authorize`);
    expect(metadata.token_endpoint).toBe(`${ISSUER}/api/oauth/token`);
    expect(metadata.registration_endpoint).toBe(`${ISSUER}/api/oauth/register`);
    expect(metadata.revocation_endpoint).toBe(`${ISSUER}/api/oauth/revoke`);
    expect(metadata.introspection_endpoint).toBe(`${ISSUER}/api/oauth/introspect`);
    expect(metadata.userinfo_endpoint).toBe(`${ISSUER}/api/oauth/userinfo`);
    expect(metadata.jwks_uri).toBe(`${ISSUER}/api/oauth/jwks`);
    expect(metadata.scopes_supported).toEqual(ALL_SCOPES);
    expect(ALL_SCOPES).toHaveLength(38);
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
    expect(metadata.client_id_metadata_document_supported).toBe(true);
  });

  it('applies the wrong-issuer and missing-S256 fault knobs', () => {
    const metadata = buildAuthorizationServerMetadata(ISSUER, {
      wrongIssuerInMetadata: 'https://attacker.example',
      omitS256FromMetadata: true,
    });
    expect(metadata.issuer).toBe('https://attacker.example');
    expect(metadata).not.toHaveProperty('code_challenge_methods_supported');
    expect(metadata.token_endpoint).toBe(`${ISSUER}/api/oauth/token`);
  });

  it('points the protected resource at this issuer', () => {
    expect(buildProtectedResourceMetadata(ISSUER, ISSUER)).toMatchObject({
      resource: ISSUER,
      authorization_servers: [ISSUER],
      bearer_methods_supported: ['header'],
      scopes_supported: ALL_SCOPES,
    });
  });
});
