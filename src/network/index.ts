/**
 * The network rules every part follows: what a school URL may be, what counts as loopback, the
 * `fetch` shape, the body caps, which HTTP client carries which request, and the header grammars more than one
 * part reads (media types, `Retry-After`, a bearer credential). A leaf: it imports
 * nothing of the bridge.
 */
export { BODY_CAPS, declaredOverCap, readCappedBody } from './body-caps.js';
export type { FetchLike } from './fetch-like.js';
export { documentFetch, type DocumentFetch, type DocumentResponse } from './document-fetch.js';
export { loadUndici, undiciFetch } from './http-stack.js';
export { isPublicAddress } from './public-address.js';
export { bearerTokenOf } from './bearer-token.js';
export { isJsonMediaType, mediaTypeOf } from './media-type.js';
export { parseRetryAfter } from './retry-after.js';
export { isLoopbackAddress, isLoopbackName, LOOPBACK_ADDRESSES, LOOPBACK_HOST_NAMES } from './loopback.js';
export { checkSchoolUrl, SCHOOL_URL_RULE } from './school-url.js';
