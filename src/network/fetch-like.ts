/**
 * The one shape of `fetch` the bridge passes around: what openid-client's `customFetch` calls,
 * what the document loader calls, and what tests inject. Only a URL string and the few request
 * fields the bridge uses, so that any fetch (Node's, undici's, a recorder) fits.
 */

export interface FetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: BodyInit | null;
  /** Always `manual` when the bridge calls: redirects are never followed (MD-03, API-06, API-08). */
  redirect?: 'manual';
  signal?: AbortSignal | null;
}

export type FetchLike = (url: string, init: FetchInit) => Promise<Response>;
