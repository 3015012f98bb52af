/**
 * `school-mcp sandbox`: runs the sandbox school until SIGINT or SIGTERM. Everything is written to
 * stderr; stdout stays unused.
 */
import { AUTH_PATHS as PATHS, type IntegrationCredentials } from './auth/index.js';
import type { SandboxOptions } from './options.js';
import { startSandbox } from './sandbox.js';

/** Pure: the lines printed once the sandbox listens. */
export function describeSandbox(url: string, options: SandboxOptions): string {
  return [
    `sandbox school listening on ${url}`,
    `  issuer:           ${url}`,
    `  metadata:         ${url}${PATHS.authorizationServerMetadata}`,
    `  openapi.json:     ${url}${PATHS.openapi}`,
    `  auth.md:          ${url}${PATHS.authMd}`,
    `  consent:          ${options.autoApprove ? 'auto-approved (--auto-approve)' : 'shown in the browser'}`,
    ...(options.dataFile === undefined ? [] : [`  data file:        ${options.dataFile}`]),
    ...(options.extraStaff ? [`  staff:            3 named, ${options.extraStaff} generated (usr_staff_001…)`] : []),
    'press Ctrl+C to stop',
    '',
  ].join('\n');
}

/** Pure: the lines that hand a registered integration's credentials to its operator. */
export function describeIntegration(callbacks: readonly string[], credentials: IntegrationCredentials): string {
  return [
    'registered integration (confidential, client_secret_post)',
    `  callbacks:        ${callbacks.join(' ')}`,
    `  client id:        ${credentials.clientId}`,
    `  client secret:    ${credentials.clientSecret}`,
    '',
  ].join('\n');
}

export interface SandboxCommandOptions extends Pick<
  SandboxOptions,
  'port' | 'autoApprove' | 'dataFile' | 'extraStaff'
> {
  readonly integrationCallbacks?: readonly string[];
}

/** The options come parsed: the command line of `school-mcp` is read in one place, from one table. */
export async function runSandboxCommand(options: SandboxCommandOptions): Promise<void> {
  const sandbox = await startSandbox(options);
  process.stderr.write(describeSandbox(sandbox.url, options));
  if (options.integrationCallbacks !== undefined) {
    try {
      const credentials = sandbox.registerIntegration({
        clientName: 'school-mcp (hosted)',
        redirectUris: options.integrationCallbacks,
      });
      process.stderr.write(describeIntegration(options.integrationCallbacks, credentials));
    } catch (error) {
      await sandbox.close();
      throw error;
    }
  }
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await sandbox.close();
  process.stderr.write('sandbox school stopped\n');
}
