/**
 * Configuration: the command line and environment, read once into a frozen `Config`.
 */
export {
  checkHttpSecretLength,
  loadConfig,
  parseSchoolUrl,
  type Config,
  type HostedConfig,
  type HttpConfig,
} from './load-config.js';
export { configError, DEFAULT_CONSENT_WAIT_MS } from './config-values.js';
