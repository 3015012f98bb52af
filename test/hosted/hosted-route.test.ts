import { describe, expect, it } from 'vitest';
import { parsePublicUrl } from '../../src/hosted/index.js';
import { bodyCapOf, hostedRouter, type HostedRoute } from '../../src/hosted/hosted-route.js';
import { BODY_CAPS } from '../../src/network/index.js';

function publicUrl(value: string) {
  const parsed = parsePublicUrl(value);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.url;
}

const atRoot = hostedRouter(publicUrl('https://school.example'));
const mounted = hostedRouter(publicUrl('https://school.example/mcp-gw'));

type Row = readonly [method: string, target: string, route: HostedRoute];

const rootRows: readonly Row[] = [
  [
    'GET',
    '/.well-known/oauth-protected-resource/mcp',
    { name: 'resource-metadata', path: '/.well-known/oauth-protected-resource/mcp' },
  ],
  [
    'GET',
    '/.well-known/oauth-protected-resource?x=1',
    { name: 'resource-metadata', path: '/.well-known/oauth-protected-resource' },
  ],
  // Only GET is served here; any other method is the engine's to refuse.
  ['HEAD', '/.well-known/oauth-protected-resource', { name: 'engine', url: '/.well-known/oauth-protected-resource' }],
  ['POST', '/mcp', { name: 'mcp' }],
  ['DELETE', '/mcp', { name: 'mcp' }],
  ['GET', '/mcp?session=1', { name: 'mcp' }],
  ['GET', '/mcp/', { name: 'engine', url: '/mcp/' }],
  ['GET', '/consent/abc_1-2', { name: 'consent-page', uid: 'abc_1-2' }],
  ['POST', '/consent/abc', { name: 'consent-page', uid: 'abc' }],
  ['PUT', '/consent/abc', { name: 'method-not-allowed', of: 'consent-page' }],
  ['GET', '/consent/abc/finish', { name: 'consent-finish', uid: 'abc' }],
  ['POST', '/consent/abc/finish', { name: 'method-not-allowed', of: 'consent-finish' }],
  ['GET', '/consent/a.b', { name: 'engine', url: '/consent/a.b' }],
  ['GET', `/consent/${'a'.repeat(101)}`, { name: 'engine', url: `/consent/${'a'.repeat(101)}` }],
  ['GET', '/step-up/xyz', { name: 'step-up', id: 'xyz' }],
  ['POST', '/step-up/xyz', { name: 'step-up', id: 'xyz' }],
  ['DELETE', '/step-up/xyz', { name: 'method-not-allowed', of: 'step-up' }],
  ['GET', '/oauth/callback?code=c&state=s', { name: 'school-callback' }],
  ['POST', '/oauth/callback', { name: 'method-not-allowed', of: 'school-callback' }],
  [
    'GET',
    '/.well-known/oauth-authorization-server',
    { name: 'engine-document', url: '/.well-known/openid-configuration' },
  ],
  ['GET', '/.well-known/openid-configuration', { name: 'engine-document', url: '/.well-known/openid-configuration' }],
  ['GET', '/oauth/jwks', { name: 'engine-document', url: '/oauth/jwks' }],
  ['POST', '/oauth/register', { name: 'registration', url: '/oauth/register' }],
  ['GET', '/oauth/register/client-1', { name: 'engine', url: '/oauth/register/client-1' }],
  ['GET', '/oauth/authorize?client_id=c', { name: 'engine', url: '/oauth/authorize?client_id=c' }],
  ['POST', '/oauth/token', { name: 'engine', url: '/oauth/token' }],
];

const mountedRows: readonly Row[] = [
  [
    'GET',
    '/.well-known/oauth-protected-resource/mcp-gw/mcp',
    { name: 'resource-metadata', path: '/.well-known/oauth-protected-resource/mcp-gw/mcp' },
  ],
  ['HEAD', '/.well-known/oauth-protected-resource/mcp-gw', { name: 'not-found' }],
  ['POST', '/mcp-gw/mcp', { name: 'mcp' }],
  ['POST', '/mcp', { name: 'not-found' }],
  ['GET', '/mcp-gwx/mcp', { name: 'not-found' }],
  ['GET', '/mcp-gw/consent/abc', { name: 'consent-page', uid: 'abc' }],
  ['GET', '/consent/abc', { name: 'not-found' }],
  ['GET', '/mcp-gw/step-up/xyz', { name: 'step-up', id: 'xyz' }],
  ['GET', '/mcp-gw/oauth/callback?code=c', { name: 'school-callback' }],
  ['GET', '/oauth/callback', { name: 'not-found' }],
  // The three places clients look for the metadata of a path issuer are all the engine's one document.
  [
    'GET',
    '/.well-known/oauth-authorization-server/mcp-gw',
    { name: 'engine-document', url: '/.well-known/openid-configuration' },
  ],
  [
    'GET',
    '/.well-known/openid-configuration/mcp-gw',
    { name: 'engine-document', url: '/.well-known/openid-configuration' },
  ],
  [
    'GET',
    '/mcp-gw/.well-known/openid-configuration',
    { name: 'engine-document', url: '/.well-known/openid-configuration' },
  ],
  ['GET', '/.well-known/openid-configuration', { name: 'not-found' }],
  ['GET', '/mcp-gw/oauth/jwks', { name: 'engine-document', url: '/oauth/jwks' }],
  ['POST', '/mcp-gw/oauth/register', { name: 'registration', url: '/oauth/register' }],
  ['POST', '/oauth/register', { name: 'not-found' }],
  ['POST', '/mcp-gw/oauth/token?x=1', { name: 'engine', url: '/oauth/token?x=1' }],
  ['GET', '/mcp-gw', { name: 'engine', url: '/' }],
];

describe('which route a hosted request takes (pure)', () => {
  it.each(rootRows)('HOST-28 at the root: %s %s', (method, target, route) => {
    expect(atRoot(method, target)).toEqual(route);
  });

  it.each(mountedRows)('HOST-28 under a path: %s %s', (method, target, route) => {
    expect(mounted(method, target)).toEqual(route);
  });

  it.each([
    [{ name: 'mcp' }, BODY_CAPS.mcpRequest],
    [{ name: 'consent-page', uid: 'a' }, BODY_CAPS.consentForm],
    [{ name: 'consent-finish', uid: 'a' }, BODY_CAPS.consentForm],
    [{ name: 'step-up', id: 'a' }, BODY_CAPS.consentForm],
    [{ name: 'method-not-allowed', of: 'consent-page' }, BODY_CAPS.consentForm],
    [{ name: 'method-not-allowed', of: 'step-up' }, BODY_CAPS.consentForm],
    [{ name: 'method-not-allowed', of: 'school-callback' }, BODY_CAPS.oauthRequest],
    [{ name: 'school-callback' }, BODY_CAPS.oauthRequest],
    [{ name: 'registration', url: '/oauth/register' }, BODY_CAPS.oauthRequest],
    [{ name: 'engine', url: '/oauth/token' }, BODY_CAPS.oauthRequest],
    [{ name: 'not-found' }, BODY_CAPS.oauthRequest],
  ] as const satisfies readonly (readonly [HostedRoute, number])[])(
    'HOST-25 caps the body of %o at %i bytes',
    (route, cap) => {
      expect(bodyCapOf(route)).toBe(cap);
    },
  );
});
