/**
 * The school is named by its base URL; that URL pins the issuer (RFC 8414 §2) and every origin we
 * will talk to. The rule is the network part's; here it becomes the sign-in's target. Pure.
 */
import { checkSchoolUrl } from '../network/index.js';
import { OAuthError } from './oauth-error.js';

export interface SchoolTarget {
  /** The base URL as given, normalised by the URL parser. */
  url: URL;
  /** The issuer we expect the school to name itself: origin plus path, no trailing slash. */
  expectedIssuer: string;
  /** True for `http://127.0.0.1` and `http://[::1]`: the only case where plain http is allowed. */
  insecureLoopback: boolean;
}

export function parseSchoolUrl(input: string | URL): SchoolTarget {
  const verdict = checkSchoolUrl(input);
  if (verdict.ok)
    return { url: verdict.url, expectedIssuer: verdict.expectedIssuer, insecureLoopback: verdict.plainHttpOnLoopback };
  switch (verdict.problem) {
    case 'not-a-url':
      throw new OAuthError(
        'OAUTH_INVALID_SCHOOL_URL',
        `The school URL is not a valid URL: ${String(input).slice(0, 200)}`,
        {
          hint: 'Pass the school base URL, for example --school https://school.example.',
        },
      );
    case 'scheme':
      throw new OAuthError(
        'OAUTH_INVALID_SCHOOL_URL',
        `The school URL must use https (got ${verdict.url?.protocol}//${verdict.url?.host}).`,
        {
          hint: 'Use the https address of the school; plain http is only accepted for 127.0.0.1 or [::1] (the sandbox).',
        },
      );
    case 'credentials':
    case 'query-or-fragment':
      throw new OAuthError(
        'OAUTH_INVALID_SCHOOL_URL',
        'The school URL must not carry credentials, a query or a fragment.',
        {
          hint: 'Pass only the base URL of the school, for example https://school.example.',
        },
      );
  }
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
