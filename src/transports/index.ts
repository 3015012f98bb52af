export { bearerTokenOf, generateSecret, isUsableSecret, secretFingerprint, secretMatches } from './bearer-secret.js';
export { bindPolicy, type BindPolicy } from './http-bind-policy.js';
export { checkHost, checkOrigin, hostAllowList, normalizeAllowedOrigin, type GuardVerdict } from './http-guards.js';
export { DEFAULT_HTTP_SOCKET_LIMITS, MAX_REQUEST_BODY_BYTES, MCP_PATH, type HttpSocketLimits } from './http-limits.js';
export type { HttpHandle, HttpServeOptions } from './http.js';
export { serveOverHttp } from './serve-over-http.js';
export { serveOverStdio, type StdioHandle } from './stdio.js';
