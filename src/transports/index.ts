export { checkHost, checkOrigin, normalizeAllowedOrigin, splitHostEntry } from './http-guards.js';
export { applySocketLimits, nodeServerOptions, type HttpSocketLimits } from './http-limits.js';
export { serveOverHttp } from './serve-over-http.js';
export { serveOverStdio } from './stdio.js';
export type { CallerRuntime } from './caller-endpoints.js';
export { openCallerEndpoints } from './open-caller-endpoints.js';
