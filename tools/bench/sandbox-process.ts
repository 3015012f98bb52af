/**
 * The sandbox school in a process of its own (`school-mcp sandbox --auto-approve`), so that the
 * school's work never shares an event loop with the client being timed.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { collectLines } from './child-lines.js';
import { SCHOOL_MCP_MAIN } from './paths.js';

export interface SandboxProcess {
  readonly url: string;
  readonly pid: number;
  close(): Promise<void>;
}

export async function startSandboxProcess(): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [SCHOOL_MCP_MAIN, 'sandbox', '--auto-approve'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const log = collectLines(child.stderr);
  const line = await log.waitFor(/listening on http/, 20_000);
  const url = /(http:\/\/\S+)/.exec(line)![1]!;
  return {
    url,
    pid: child.pid!,
    async close() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
