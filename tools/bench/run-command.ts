/** A command run to completion, for the bench's set-up steps (install, generate, build). */
import { spawn } from 'node:child_process';

interface CommandResult {
  readonly code: number | null;
  readonly output: string;
}

function runCommand(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

export async function mustRun(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  const result = await runCommand(command, args, options);
  if (result.code !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${result.code}:\n${result.output.slice(-2000)}`);
  return result.output;
}
