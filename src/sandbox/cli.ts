/**
 * `school-mcp sandbox [--port N] [--auto-approve] [--data FILE]`: runs the sandbox school until
 * SIGINT or SIGTERM. Everything is written to stderr; stdout stays unused.
 */
import { AUTH_PATHS as PATHS } from './auth/index.js';
import type { SandboxOptions } from './options.js';
import { startSandbox } from './sandbox.js';

export const SANDBOX_USAGE = `usage: school-mcp sandbox [--port N] [--auto-approve] [--data FILE]

  --port N         listen on 127.0.0.1:N (default: a free port)
  --auto-approve   approve every authorization request without the consent page
  --data FILE      keep the school's data in FILE across restarts
`;

export type SandboxArgs = { kind: 'run'; options: SandboxOptions } | { kind: 'help' } | { kind: 'invalid'; reason: string };

/** Pure: the command's arguments. */
export function parseSandboxArgs(args: readonly string[]): SandboxArgs {
  const options: SandboxOptions = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [name, inlineValue] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string | undefined => inlineValue ?? args[++i];
    switch (name) {
      case '--help':
      case '-h':
        return { kind: 'help' };
      case '--auto-approve':
        options.autoApprove = true;
        break;
      case '--port': {
        const port = Number(value());
        if (!Number.isInteger(port) || port < 0 || port > 65535) return { kind: 'invalid', reason: '--port needs a number from 0 to 65535' };
        options.port = port;
        break;
      }
      case '--data': {
        const file = value();
        if (file === undefined || file === '' || file.startsWith('--')) return { kind: 'invalid', reason: '--data needs a file path' };
        options.dataFile = file;
        break;
      }
      default:
        return { kind: 'invalid', reason: `unknown argument ${arg}` };
    }
  }
  return { kind: 'run', options };
}

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
    'press Ctrl+C to stop',
    '',
  ].join('\n');
}

export async function runSandboxCommand(args: string[]): Promise<void> {
  const parsed = parseSandboxArgs(args);
  if (parsed.kind === 'help') {
    process.stderr.write(SANDBOX_USAGE);
    return;
  }
  if (parsed.kind === 'invalid') throw new Error(`${parsed.reason}\n${SANDBOX_USAGE}`);

  const sandbox = await startSandbox(parsed.options);
  process.stderr.write(describeSandbox(sandbox.url, parsed.options));
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
