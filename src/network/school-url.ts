/**
 * The rule for the school's base URL, the same wherever it is read (the command line, the
 * sign-in, the API description). Pure: each part words the refusal in its own error.
 *
 * https, or plain http on a loopback literal (the sandbox; see `loopback.ts`); no credentials,
 * query or fragment. The URL pins the issuer (RFC 8414 §2) and every origin the bridge talks to.
 * @see SECURITY.md NET-07
 */
import { isLoopbackAddress } from './loopback.js';

interface SchoolUrl {
  /** The base URL as given, normalised by the URL parser. */
  readonly url: URL;
  /** The issuer the school is expected to name itself: origin plus path, no trailing slash. */
  readonly expectedIssuer: string;
  /** Plain http to 127.0.0.1 or ::1: the only case where http is allowed. */
  readonly plainHttpOnLoopback: boolean;
}

type SchoolUrlProblem = 'not-a-url' | 'scheme' | 'credentials' | 'query-or-fragment';

export type SchoolUrlVerdict =
  | ({ readonly ok: true } & SchoolUrl)
  | { readonly ok: false; readonly problem: SchoolUrlProblem; readonly url?: URL };

export function checkSchoolUrl(input: string | URL): SchoolUrlVerdict {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    return { ok: false, problem: 'not-a-url' };
  }
  const plainHttpOnLoopback = url.protocol === 'http:' && isLoopbackAddress(url.hostname);
  if (url.protocol !== 'https:' && !plainHttpOnLoopback) return { ok: false, problem: 'scheme', url };
  if (url.username || url.password) return { ok: false, problem: 'credentials', url };
  if (url.search || url.hash) return { ok: false, problem: 'query-or-fragment', url };
  return { ok: true, url, expectedIssuer: `${url.origin}${url.pathname.replace(/\/+$/, '')}`, plainHttpOnLoopback };
}

/** How a refusal reads the same everywhere: the rule in one sentence. */
export const SCHOOL_URL_RULE =
  'https, or plain http only on 127.0.0.1 or [::1] (the sandbox), without credentials, query or fragment';
