/**
 * The one rule for "this refresh can never succeed again", shared by the single-user refresher
 * and hosted mode's shared refresh: only the school's `invalid_grant` or `invalid_client` ends a
 * grant; a failure that may pass keeps it.
 */
import * as client from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { endsGrant, loadOpenIdClient, OAuthError } from '../../src/oauth/index.js';

// An error of openid-client's exists only once the product has loaded it (on first use), and the
// classification relies on that: load it as a refresh would before building its errors here.
beforeAll(async () => {
  await loadOpenIdClient();
});

function schoolAnswered(error: string, status = 400): client.ResponseBodyError {
  return new client.ResponseBodyError('the token endpoint answered an error', {
    cause: { error },
    response: new Response(null, { status }),
  });
}

describe('endsGrant', () => {
  it('RF-05 RF-06 is true when the school answered invalid_grant or invalid_client', () => {
    expect(endsGrant(schoolAnswered('invalid_grant'))).toBe(true);
    expect(endsGrant(schoolAnswered('invalid_client', 401))).toBe(true);
  });

  it('SCL-15 is false for what may pass or is not about the grant: other errors, a failing school, the network', () => {
    expect(endsGrant(schoolAnswered('invalid_request'))).toBe(false);
    expect(endsGrant(schoolAnswered('server_error', 500))).toBe(false);
    expect(endsGrant(new TypeError('fetch failed'))).toBe(false);
    expect(
      endsGrant(new OAuthError('OAUTH_NETWORK', 'The school did not answer in time.', { hint: 'Try again.' })),
    ).toBe(false);
  });
});
