/**
 * The school is named by its base URL; that URL pins the issuer (RFC 8414 §2) and every origin we
 * will talk to. https only, except loopback http for the sandbox. Pure.
 */
import { OAuthError } from './oauth-error.js';

export interface SchoolTarget {
  /** The base URL as given, normalised by the URL parser. */
  url: URL;
  /** The issuer we expect the school to name itself: origin plus path, no trailing slash. */
  expectedIssuer: string;
  /** True for `http://127.0.0.1` and friends: the only case where plain http is allowed. */
  insecureLoopback: boolean;
}

export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

export function parseSchoolUrl(input: string | URL): SchoolTarget {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch (cause) {
    throw new OAuthError('OAUTH_INVALID_SCHOOL_URL', `The school URL is not a valid URL: ${String(input).slice(0, 200)}`, {
      cause,
      hint: 'Pass the school base URL, for example --school https://school.example.',
    });
  }
  const loopbackHttp = url.protocol === 'http:' && isLoopbackHostname(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) {
    throw new OAuthError('OAUTH_INVALID_SCHOOL_URL', `The school URL must use https (got ${url.protocol}//${url.host}).`, {
      hint: 'Use the https address of the school; plain http is only accepted for 127.0.0.1 (the sandbox).',
    });
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new OAuthError('OAUTH_INVALID_SCHOOL_URL', 'The school URL must not carry credentials, a query or a fragment.', {
      hint: 'Pass only the base URL of the school, for example https://school.example.',
    });
  }
  const path = url.pathname.replace(/\/+$/, '');
  return { url, expectedIssuer: `${url.origin}${path}`, insecureLoopback: loopbackHttp };
}

/**
 * RFC 8414 §3.1 / RFC 9728 §3.1: the well-known segment goes between the host and the issuer's
 * path component.
 */
export function wellKnownUrl(issuer: string, suffix: string): URL {
  const base = new URL(issuer);
  const path = base.pathname === '/' ? '' : base.pathname.replace(/\/+$/, '');
  return new URL(`/.well-known/${suffix}${path}`, base.origin);
}
