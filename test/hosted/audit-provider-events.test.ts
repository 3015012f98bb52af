import { describe, expect, it } from 'vitest';
import { revocationReason } from '../../src/hosted/audit-provider-events.js';

describe('why the authorization server ended a grant', () => {
  it('HOST-56 tells a reused refresh token from a reused code and from a revocation request', () => {
    expect(revocationReason('token', { RefreshToken: {} })).toBe('refresh_token_reuse');
    expect(revocationReason('token', { AuthorizationCode: {} })).toBe('code_reuse');
    expect(revocationReason('revocation', { RefreshToken: {} })).toBe('revocation_request');
    expect(revocationReason('end_session_confirm', {})).toBe('logout');
    expect(revocationReason(undefined, {})).toBe('other');
  });
});
