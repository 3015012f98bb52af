/**
 * `school-mcp sandbox`: its port, approval, data file, registered integration and extra staff. Pure.
 */
import type { SandboxCommandOptions } from './config.js';
import { configError, parseExtraStaff, parseIntegrationCallback, parsePort } from './config-values.js';
import type { ParsedValues } from './parsed-values.js';

export function parseSandboxOptions(values: ParsedValues): SandboxCommandOptions {
  if (values.data === '') throw configError('--data needs a file path', 'sandbox');
  return {
    ...(values.port === undefined ? {} : { port: parsePort(values.port, '--port', 0, 'sandbox') }),
    ...(values['auto-approve'] === true ? { autoApprove: true } : {}),
    ...(values.data === undefined ? {} : { dataFile: values.data }),
    ...(values.integration === undefined
      ? {}
      : { integrationCallbacks: values.integration.map((callback) => parseIntegrationCallback(callback)) }),
    ...(values['extra-staff'] === undefined ? {} : { extraStaff: parseExtraStaff(values['extra-staff']) }),
  };
}
