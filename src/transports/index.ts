export { generateSecret, isUsableSecret, secretFingerprint, secretMatches } from './bearer-secret.js';
export { bindPolicy } from './http-bind-policy.js';
export {
  checkHost,
  checkOrigin,
  hostAllowList,
  normalizeAllowedOrigin,
  ownLoopbackOrigins,
  splitHostEntry,
} from './http-guards.js';
export {
  applySocketLimits,
  DEFAULT_HTTP_SOCKET_LIMITS,
  MAX_REQUEST_BODY_BYTES,
  nodeServerOptions,
  type HttpSocketLimits,
} from './http-limits.js';
export type { HttpHandle } from './http.js';
export { serveOverHttp } from './serve-over-http.js';
export { serveOverStdio } from './stdio.js';
export type { CallerRuntime } from './caller-endpoints.js';
export { openCallerEndpoints } from './open-caller-endpoints.js';
