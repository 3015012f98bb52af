/**
 * Configuration: the command line and environment, read once into a frozen `Config`.
 */
export type { Config, HostedConfig, HttpConfig } from './config.js';
export { loadConfig } from './load-config.js';
export { checkHttpSecretLength } from './http-options.js';
export { configError, DEFAULT_CONSENT_WAIT_MS, parseSchoolUrl } from './config-values.js';
