/**
 * `--demo`: a sandbox school started in-process on 127.0.0.1, so the server can be tried without
 * a real school. Its tokens live in a private temporary directory: the sandbox gets a new port,
 * and so a new issuer, every time, and nothing of it should pile up in the user's config.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSandbox, SandboxOptions } from '@school-mcp/sandbox';

export interface DemoSchool {
  readonly sandbox: RunningSandbox;
  readonly schoolUrl: URL;
  readonly configDir: string;
  close(): Promise<void>;
}

export async function startDemoSchool(options: SandboxOptions = {}): Promise<DemoSchool> {
  // Loaded here, not at the top: the sandbox is the largest part, and only `--demo` needs it.
  const { startSandbox } = await import('@school-mcp/sandbox');
  const sandbox = await startSandbox(options);
  const configDir = await mkdtemp(join(tmpdir(), 'school-mcp-demo-'));
  return {
    sandbox,
    schoolUrl: new URL(sandbox.url),
    configDir,
    async close() {
      await sandbox.close();
      await rm(configDir, { recursive: true, force: true });
    },
  };
}
