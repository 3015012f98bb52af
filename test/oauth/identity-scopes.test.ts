/**
 * A school that binds access tokens to its API (RFC 8707) and leaves the OpenID Connect scopes out
 * of the token's `scope`, as node-oidc-provider does: openid and profile went to the ID token, the
 * access token carries the API's scopes only. Over real HTTP against the mock school.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scopesToCheck } from '../../src/oauth/scopes.js';
import { createHarness, READ_COURSES, type Harness } from './support/harness.js';
import { approvingBrowser, startMockSchool, type MockSchool } from './support/mock-school.js';

let harness: Harness;
let school: MockSchool;
let browser: ReturnType<typeof approvingBrowser>;
beforeEach(async () => {
  harness = await createHarness();
  school = await startMockSchool();
  browser = approvingBrowser();
  school.withhold.add('openid').add('profile');
});
afterEach(async () => {
  await harness.cleanup();
  await school.close();
});

describe('identity scopes left out of a resource-bound token', () => {
  it('are not what a grant is judged by', () => {
    expect(scopesToCheck(['courses:read', 'openid', 'profile'])).toEqual(['courses:read']);
    expect(scopesToCheck(['openid', 'profile'])).toEqual([]);
  });

  it('a consent for courses:read openid profile answered with courses:read is enough: no second prompt, no error', async () => {
    const session = harness.session({ schoolUrl: new URL(school.base), prompter: browser });
    await expect(session.accessToken(READ_COURSES)).resolves.toMatch(/^AT-CANARY-/);
    expect(new URL(browser.prompts[0]!.url).searchParams.get('scope')).toBe('courses:read openid profile');
    expect(session.grantedScopes()).toEqual(['courses:read']);

    // What the MCP side does while it waits on a consent it showed: it asks for the consent's scopes.
    await expect(session.stepUp(['courses:read', 'openid', 'profile'])).resolves.toMatch(/^AT-CANARY-/);
    expect(browser.prompts).toHaveLength(1);
    expect(school.formsTo('token', 'authorization_code')).toHaveLength(1);
  });

  it('TK-04 a withheld API scope is still refused by name', async () => {
    school.withhold.add('courses:write');
    const session = harness.session({ schoolUrl: new URL(school.base), prompter: browser });
    await expect(session.stepUp(['courses:write'])).rejects.toMatchObject({
      code: 'OAUTH_SCOPE_NOT_GRANTED',
      details: { missing: ['courses:write'] },
    });
  });
});
