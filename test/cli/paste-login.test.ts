/**
 * `school-mcp login --paste` (BR-04c) against the sandbox over real HTTP: the pasted address goes
 * to the flow's own listener, so a wrong `state` or `iss` is refused exactly as for a browser
 * redirect and the code is never exchanged. And the flag exists for `login` only (STDIO-02).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runLogin } from '../../src/cli/index.js';
import { pastedRedirect } from '../../src/cli/pasted-redirect.js';
import { loadConfig } from '../../src/config/index.js';
import { completeConsent, type RunningSandbox } from '@school-mcp/sandbox';
import { fakeBrowser } from '../oauth/support/fake-browser.js';
import { createHarness, until, type Harness } from '../oauth/support/harness.js';

const TOKEN = '/api/oauth/token';
const REDIRECT = 'http://127.0.0.1:50123/callback';

let harness: Harness;
let sandbox: RunningSandbox;
beforeEach(async () => {
  harness = await createHarness();
  sandbox = await harness.sandbox();
});
afterEach(async () => {
  await harness.cleanup();
});

/** Starts `login --paste` and returns the printed link once it is shown. */
async function startPasteLogin(scopes: string[] = ['courses:read']) {
  const input = new PassThrough();
  const out: string[] = [];
  const session = harness.session({ schoolUrl: new URL(sandbox.url), prompter: fakeBrowser({ idle: true }) });
  const done = runLogin(session, { scopes, paste: { input } }, (line) => out.push(line));
  done.catch(() => undefined);
  await until(() => out.some((line) => line.startsWith('  http')), 'the printed link');
  const link = out.find((line) => line.startsWith('  http'))!.trim();
  return { input, out, done, link, paste: (text: string) => input.write(`${text}\n`) };
}

describe('pasted redirect address (pure)', () => {
  it('BR-04c keeps only the query and sends it to our own redirect URI', () => {
    expect(pastedRedirect(`  "${REDIRECT}?code=c&state=s&iss=i"  `, REDIRECT)).toEqual({
      ok: true,
      deliverTo: `${REDIRECT}?code=c&state=s&iss=i`,
    });
  });

  it.each([
    ['another host', 'http://evil.example:50123/callback?code=c&state=s'],
    ['localhost instead of the IP literal', 'http://localhost:50123/callback?code=c&state=s'],
    ['another port', 'http://127.0.0.1:50124/callback?code=c&state=s'],
    ['another path', 'http://127.0.0.1:50123/callback/x?code=c&state=s'],
    ['https', 'https://127.0.0.1:50123/callback?code=c&state=s'],
    ['no answer in it', REDIRECT],
    ['not an address', 'code=c&state=s'],
    ['nothing', '   '],
  ])('BR-04c refuses %s without sending anything', (_, text) => {
    expect(pastedRedirect(text, REDIRECT).ok).toBe(false);
  });
});

describe('login --paste', () => {
  it('BR-04c prints the link, takes the pasted address and signs in with one code exchange', async () => {
    const login = await startPasteLogin();
    const landed = await completeConsent(login.link, 'allow');
    // A first, wrong paste (the link itself) is explained and does not end anything.
    login.paste(login.link);
    login.paste(landed.href);
    await login.done;
    expect(login.out.join('\n')).toMatch(/not the address to paste/);
    expect(login.out).toContain('Signed in:  yes');
    expect(sandbox.countRequests(TOKEN, 'POST')).toBe(1);
  });

  it('BR-04c CB-02 a pasted answer with another state is refused by the listener; no code is exchanged', async () => {
    const login = await startPasteLogin();
    const landed = await completeConsent(login.link, 'allow');
    landed.searchParams.set('state', 'not-the-state-of-this-flow');
    login.paste(landed.href);
    await until(() => login.out.some((line) => line.includes('was refused')), 'the refusal');
    login.input.end();
    await expect(login.done).rejects.toMatchObject({ code: 'OAUTH_CALLBACK_REJECTED' });
    expect(sandbox.countRequests(TOKEN, 'POST')).toBe(0);
  });

  it('BR-04c CB-01 a pasted answer with another iss ends the flow as rejected; no code is exchanged', async () => {
    const login = await startPasteLogin();
    const landed = await completeConsent(login.link, 'allow');
    landed.searchParams.set('iss', 'https://attacker.example');
    login.paste(landed.href);
    await expect(login.done).rejects.toMatchObject({ code: 'OAUTH_CALLBACK_REJECTED' });
    expect(sandbox.countRequests(TOKEN, 'POST')).toBe(0);
  });

  it('BR-04c CB-04 a pasted denial is reported as a denial', async () => {
    const login = await startPasteLogin();
    login.paste((await completeConsent(login.link, 'deny')).href);
    await expect(login.done).rejects.toMatchObject({ code: 'OAUTH_ACCESS_DENIED' });
    expect(sandbox.countRequests(TOKEN, 'POST')).toBe(0);
  });

  it('BR-04c the terminal closing without a paste ends the login cleanly', async () => {
    const login = await startPasteLogin();
    login.input.end();
    await expect(login.done).rejects.toMatchObject({ code: 'OAUTH_ABORTED' });
  });
});

describe('STDIO-02 only the login command reads the terminal', () => {
  const env = { SCHOOL_MCP_SCHOOL: 'https://school.example' };

  it('accepts --paste with login, and refuses it when serving or with other commands', () => {
    expect(loadConfig(['login', '--paste'], env).pasteRedirect).toBe(true);
    expect(loadConfig(['login'], env).pasteRedirect).toBe(false);
    for (const argv of [['--paste'], ['status', '--paste'], ['logout', '--paste'], ['--http', '--paste']]) {
      expect(() => loadConfig(argv, env)).toThrow(/--paste goes with the login command only/);
    }
  });

  it('no part of the server or the sign-in session reads stdin or a terminal prompt', async () => {
    const root = fileURLToPath(new URL('../../src', import.meta.url));
    const offenders: string[] = [];
    for (const part of ['oauth', 'server', 'app', 'executor', 'openapi']) {
      for (const name of await readdir(join(root, part), { recursive: true })) {
        if (!name.endsWith('.ts')) continue;
        const text = await readFile(join(root, part, name), 'utf8');
        if (/process\.stdin|node:readline/.test(text)) offenders.push(`${part}/${name}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
