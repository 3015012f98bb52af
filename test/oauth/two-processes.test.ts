/**
 * Two real processes share one token store and ask for consent at the same time: one browser
 * opening, both end signed in (DESIGN: no login-tab storms). The children run the built sign-in
 * part (`dist/`, from `npm run build`) in plain Node.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { access, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { completeConsent } from '@school-mcp/sandbox';
import { createTokenStore } from '../../src/oauth/token-store.js';
import { fakeBrowser } from './support/fake-browser.js';
import { createHarness, READ_COURSES, type Harness } from './support/harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** `npm run build`'s output (pretest): the children run the built sign-in part in plain Node. */
const built = join(root, 'dist');
const child = fileURLToPath(new URL('./support/consent-child.mjs', import.meta.url));
const holderChild = fileURLToPath(new URL('./support/refresh-holder-child.mjs', import.meta.url));
const HOUR = 3600_000;

let harness: Harness;
beforeEach(async () => {
  harness = await createHarness();
});
afterEach(async () => {
  await harness.cleanup();
});

interface ChildLine {
  waiting?: boolean;
  prompt?: string;
  token?: string;
  error?: string;
}

function run(
  school: string,
  storeDir: string,
  onPrompt: (url: string) => void,
  onWaiting: () => void = () => undefined,
): Promise<ChildLine[]> {
  const process = spawn('node', [child, built, school, storeDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: ChildLine[] = [];
  createInterface({ input: process.stdout }).on('line', (line) => {
    const parsed = JSON.parse(line) as ChildLine;
    lines.push(parsed);
    if (parsed.prompt) onPrompt(parsed.prompt);
    if (parsed.waiting) onWaiting();
  });
  return new Promise((resolve, reject) => {
    process.on('error', reject);
    process.on('exit', () => resolve(lines));
  });
}

describe('two processes', () => {
  it('RF-02 AZ-02 two processes asking at once share one consent: one browser opening, both signed in', async () => {
    const sandbox = await harness.sandbox({ autoApprove: true });
    const storeDir = join(harness.dir, 'shared-store');
    const prompts: string[] = [];
    const approve = (url: string) => {
      prompts.push(url);
      void completeConsent(url, 'allow')
        .then((callback) => fetch(callback))
        .then((response) => response.text());
    };
    const [a, b] = await Promise.all([run(sandbox.url, storeDir, approve), run(sandbox.url, storeDir, approve)]);
    expect(prompts).toHaveLength(1);
    const tokens = [...a, ...b].filter((line) => line.token).map((line) => line.token);
    expect(tokens).toHaveLength(2);
    expect(tokens[0]).toBe(tokens[1]);
    expect(sandbox.countRequests('/api/oauth/register', 'POST')).toBe(1);
    expect(sandbox.countRequests('/oauth/authorize')).toBe(1);
    expect(sandbox.countRequests('/api/oauth/token', 'POST')).toBe(1);
  });

  it('a waiting process learns that the other process was denied, without opening a tab itself', async () => {
    const sandbox = await harness.sandbox();
    const storeDir = join(harness.dir, 'shared-store');
    const prompts: string[] = [];
    // The user decides only once the second process is waiting for the first one's flow.
    let secondWaits!: () => void;
    const waiting = new Promise<void>((resolve) => (secondWaits = resolve));
    const deny = (url: string) => {
      prompts.push(url);
      void waiting
        .then(() => completeConsent(url, 'deny'))
        .then((callback) => fetch(callback))
        .then((response) => response.text());
    };
    const [a, b] = await Promise.all([
      run(sandbox.url, storeDir, deny, secondWaits),
      run(sandbox.url, storeDir, deny, secondWaits),
    ]);
    expect(prompts).toHaveLength(1);
    expect([...a, ...b].filter((line) => line.error).map((line) => line.error)).toEqual([
      'OAUTH_ACCESS_DENIED',
      'OAUTH_ACCESS_DENIED',
    ]);
  });
});

describe('a refresh lock holder that dies', () => {
  /** Tokens on disk that are already expired by the real clock. */
  async function expiredStore() {
    const sandbox = await harness.sandbox({ autoApprove: true });
    const storeDir = join(harness.dir, 'shared-store');
    const past = harness.session({
      schoolUrl: new URL(sandbox.url),
      prompter: fakeBrowser(),
      storeDir,
      now: () => Date.now() - 2 * HOUR,
    });
    const stale = await past.accessToken(READ_COURSES);
    await past.close();
    const store = createTokenStore({ dir: storeDir, issuer: sandbox.issuer, logger: harness.logger, now: Date.now });
    return { sandbox, storeDir, stale, store };
  }

  it('RF-02 the holder killed with SIGKILL while refreshing: the other process takes the lock over and refreshes once', async () => {
    const { sandbox, storeDir, stale, store } = await expiredStore();
    const holder = spawn('node', [holderChild, built, sandbox.url, storeDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => holder.on('exit', (_, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      holder.on('error', reject);
      createInterface({ input: holder.stdout }).on('line', (line) => {
        if ((JSON.parse(line) as { refreshing?: boolean }).refreshing) resolve();
      });
    });
    holder.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    // The lock file of the dead holder is still there.
    await expect(access(store.lockPath('refresh'))).resolves.toBeUndefined();

    const browser = fakeBrowser();
    const survivor = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser, storeDir });
    const fresh = await survivor.accessToken(READ_COURSES);
    expect(fresh).not.toBe(stale);
    expect(browser.prompts).toEqual([]);
    expect(sandbox.countRequests('/api/oauth/token', 'POST')).toBe(2);
    expect((await store.read()).tokens?.accessToken).toBe(fresh);
    await expect(access(store.lockPath('refresh'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('RF-02 a live holder that kept the lock past the stale-lock timeout is taken over', async () => {
    const { sandbox, storeDir, stale, store } = await expiredStore();
    // A live process (our parent) named as holder, 31 s ago: older than the 30 s stale age.
    await writeFile(
      store.lockPath('refresh'),
      JSON.stringify({ id: 'hung-holder', pid: process.ppid, at: Date.now() - 31_000 }),
      { mode: 0o600 },
    );
    const survivor = harness.session({ schoolUrl: new URL(sandbox.url), prompter: fakeBrowser(), storeDir });
    expect(await survivor.accessToken(READ_COURSES)).not.toBe(stale);
    expect(sandbox.countRequests('/api/oauth/token', 'POST')).toBe(2);
  });
});
