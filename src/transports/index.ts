export { bearerTokenOf, generateSecret, isUsableSecret, secretFingerprint, secretMatches } from './bearer-secret.js';
export { bindPolicy, type BindPolicy } from './http-bind-policy.js';
export { checkHost, checkOrigin, hostAllowList, normalizeAllowedOrigin, type GuardVerdict } from './http-guards.js';
export { MAX_REQUEST_BODY_BYTES, MCP_PATH, serveOverHttp, type HttpHandle, type HttpServeOptions } from './http.js';
export { serveOverStdio, type StdioHandle } from './stdio.js';
