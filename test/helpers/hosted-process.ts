/**
 * `school-mcp --hosted` as a child process on 127.0.0.1 against a sandbox school: the school's
 * staff register its integration for the public URL's callback, and the secret and a fresh store
 * key reach it through the environment, as an operator gives them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { RunningSandbox } from '@school-mcp/sandbox';
import { MAIN_JS } from './mcp-stdio.js';

export interface HostedProcessOptions {
  readonly sandbox: RunningSandbox;
  /** The port to listen on; the public URL is `http://127.0.0.1:{port}{path}`. */
  readonly port: number;
  readonly publicUrl: string;
  /** HOME of the process; its store is `{home}/store`. */
  readonly home: string;
  /** The name the integration is registered under at the school. */
  readonly clientName: string;
  /** Options after the ones every hosted start needs. */
  readonly extraArgs?: readonly string[];
}

/** Starts the process; stdout is ignored, stderr piped for the caller to read. */
export function spawnHostedProcess(options: HostedProcessOptions): ChildProcess {
  const { sandbox, port, publicUrl, home } = options;
  const integration = sandbox.registerIntegration({
    clientName: options.clientName,
    redirectUris: [`${publicUrl}/oauth/callback`],
  });
  return spawn(
    process.execPath,
    [
      MAIN_JS,
      '--hosted',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--public-url',
      publicUrl,
      '--school',
      sandbox.url,
      '--client-id',
      integration.clientId,
      '--store',
      join(home, 'store'),
      ...(options.extraArgs ?? []),
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        SCHOOL_MCP_CLIENT_SECRET: integration.clientSecret,
        SCHOOL_MCP_STORE_KEY: randomBytes(32).toString('base64'),
      },
    },
  );
}
