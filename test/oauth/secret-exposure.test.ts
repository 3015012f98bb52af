/**
 * ST-06: after a real sign-in against the sandbox, the tokens are nowhere in the process's
 * environment, argv or title, nor in what the browser launcher is given (its argv and its
 * environment) when a later consent opens the browser. The launcher's `spawn` is intercepted,
 * so no browser really starts.
 */
import childProcess, { type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBrowserPrompter } from '../../src/consent/index.js';
import { createTokenStore } from '../../src/oauth/token-store.js';
import { completeConsent } from '@school-mcp/sandbox';
import { createHarness, READ_COURSES, until, type Harness } from './support/harness.js';

interface Launch {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
}

let harness: Harness;
let launches: Launch[];
beforeEach(async () => {
  harness = await createHarness();
  launches = [];
  vi.spyOn(childProcess, 'spawn').mockImplementation(((
    command: string,
    args: readonly string[],
    options: { env?: NodeJS.ProcessEnv } = {},
  ) => {
    launches.push({ command, args: [...args], env: options.env ?? process.env });
    const child = Object.assign(new EventEmitter(), { unref: () => undefined });
    setImmediate(() => child.emit('spawn'));
    return child as unknown as ChildProcess;
  }) as unknown as typeof childProcess.spawn);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await harness.cleanup();
});

/** Approves whatever URL the launcher was last given. */
async function approveLastLaunch(): Promise<void> {
  const url = launches.at(-1)!.args.at(-1)!;
  await (await fetch(await completeConsent(url, 'allow'))).text();
}

describe('secrets stay out of the process metadata', () => {
  it('ST-06 BR-03 tokens are absent from env, argv, title and the browser launcher', async () => {
    const sandbox = await harness.sandbox();
    const session = harness.session({
      schoolUrl: new URL(sandbox.url),
      prompter: createBrowserPrompter({
        logger: harness.logger,
        platform: 'linux',
        env: { DISPLAY: ':0' },
        print: () => undefined,
      }),
    });
    const first = session.accessToken(READ_COURSES);
    await until(() => launches.length === 1, 'the first browser launch');
    await approveLastLaunch();
    await first;
    const tokens = (
      await createTokenStore({
        dir: join(harness.dir, 'store'),
        issuer: sandbox.issuer,
        logger: harness.logger,
        now: Date.now,
      }).read()
    ).tokens!;
    const secrets = [tokens.accessToken, tokens.refreshToken!];

    // A second consent (step-up) launches the browser while the tokens exist.
    const stepUp = session.stepUp(['orders:read']);
    await until(() => launches.length === 2, 'the step-up browser launch');
    await approveLastLaunch();
    await stepUp;

    const launch = launches[1]!;
    // The URL is the single argument after the launcher's own; no shell is involved.
    expect(launch.command).not.toMatch(/(^|\/)(sh|bash|cmd|powershell)(\.exe)?$/);
    expect(new URL(launch.args.at(-1)!).origin).toBe(new URL(sandbox.url).origin);
    const exposed = [
      ...Object.values(process.env),
      ...process.argv,
      process.title,
      ...launches.flatMap((entry) => [entry.command, ...entry.args, ...Object.values(entry.env)]),
    ].join('\n');
    for (const secret of secrets) expect(exposed).not.toContain(secret);
    const latest = (
      await createTokenStore({
        dir: join(harness.dir, 'store'),
        issuer: sandbox.issuer,
        logger: harness.logger,
        now: Date.now,
      }).read()
    ).tokens!;
    expect(exposed).not.toContain(latest.accessToken);
  });
});
