/**
 * Registration (RFC 7591) against an authorization server the project did not write:
 * node-oidc-provider, configured as the school's contract describes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { discoverSchool } from '../../src/oauth/discovery.js';
import { parseSchoolUrl } from '../../src/oauth/index.js';
import { registerClient } from '../../src/oauth/registration.js';
import { createSchoolFetch } from '../../src/oauth/school-fetch.js';
import { startEngineSchool, type EngineSchool } from '../helpers/engine-school.js';

let school: EngineSchool;

beforeAll(async () => {
  school = await startEngineSchool();
});

afterAll(async () => {
  await school.close();
});

describe('registration answers of the engine', () => {
  it('RG-02 a redirect URI the engine does not take is OAUTH_REDIRECT_URI_REJECTED after one request, no retry', async () => {
    const target = parseSchoolUrl(school.url);
    const fetch = createSchoolFetch();
    const logger = createLogger({ write: () => {} });
    const metadata = await discoverSchool(target, fetch, logger);
    const registrationPosts = () =>
      school.requests.filter((request) => request.method === 'POST' && request.path === '/api/oauth/register').length;
    const before = registrationPosts();
    await expect(
      registerClient({ target, metadata, fetch, logger, now: Date.now }, 'https://app.example/callback'),
    ).rejects.toMatchObject({
      code: 'OAUTH_REDIRECT_URI_REJECTED',
      details: { error: 'invalid_redirect_uri', status: 400 },
    });
    expect(registrationPosts()).toBe(before + 1);
  });
});
