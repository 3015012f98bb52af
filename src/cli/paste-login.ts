/**
 * `school-mcp login --paste`, for a machine without a browser (BR-04c): the link is printed, the
 * user approves anywhere, and pastes the address the browser landed on (which does not load there,
 * since it points at this machine's 127.0.0.1). That answer is handed to the waiting listener, so
 * it passes exactly the checks a browser redirect passes. Only this command reads the terminal;
 * the MCP server never reads stdin for a person (STDIO-02).
 */
import { createInterface } from 'node:readline';
import type { SignInSession } from '../consent/index.js';
import { OAuthError, pendingConsentOf } from '../oauth/index.js';
import type { LineWriter } from './line-writer.js';
import { pastedRedirect, redirectUriOf } from './pasted-redirect.js';

type Settled = { kind: 'settled'; error?: unknown };
type Pasted = { kind: 'line'; line: string } | { kind: 'end' };

const DELIVERY_TIMEOUT_MS = 10_000;

/** Signs in through a pasted redirect address; resolves once the session holds the tokens. */
export async function pasteLogin(
  session: SignInSession,
  scopes: readonly string[],
  input: NodeJS.ReadableStream,
  write: LineWriter,
): Promise<void> {
  const request = { scopeAlternatives: [scopes], requiredScopes: scopes };
  let url: string;
  try {
    // Zero wait: the flow opens (listener bound, URL built) and the call returns at once.
    await session.accessToken({ ...request, waitMs: 0 });
    return;
  } catch (error) {
    const pending = pendingConsentOf(error);
    if (!pending?.url) throw error;
    url = pending.url;
  }
  const redirectUri = redirectUriOf(url);
  if (!redirectUri)
    throw new OAuthError('OAUTH_INVALID_CONFIG', 'The sign-in link names no redirect address.', {
      hint: 'Run `school-mcp login` again.',
    });

  write('Open this link in a browser on any machine and approve the request:');
  write(`  ${url}`);
  write(`The browser then goes to an address starting with ${redirectUri}, which may not load.`);
  write('Copy that whole address from the address bar, paste it here and press Enter:');

  // The same call joins the open flow and settles with its outcome.
  const settled: Promise<Settled> = session.accessToken(request).then(
    () => ({ kind: 'settled' }),
    (error: unknown) => ({ kind: 'settled', error }),
  );
  const reader = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY, terminal: false });
  const lines = reader[Symbol.asyncIterator]();
  const nextLine = (): Promise<Pasted> =>
    lines.next().then((next) => (next.done ? { kind: 'end' } : { kind: 'line', line: String(next.value) }));
  let accepted = false;
  let refused = false;
  try {
    for (let pending = nextLine(); ;) {
      const event = await Promise.race([settled, pending]);
      if (event.kind === 'settled') {
        // The flow's own rejection, passed on as it came (an Error from the OAuth client or this bridge).
        // oxlint-disable-next-line typescript/only-throw-error
        if (event.error !== undefined) throw event.error;
        return;
      }
      if (event.kind === 'end') {
        // The answer was handed over: its outcome is the flow's (exchange or refusal).
        if (accepted) return finish(await settled);
        throw refused
          ? new OAuthError(
              'OAUTH_CALLBACK_REJECTED',
              'The pasted address does not answer this sign-in; no code was exchanged.',
              {
                hint: 'Run `school-mcp login --paste` again and paste the address the browser landed on after approving.',
              },
            )
          : new OAuthError('OAUTH_ABORTED', 'No address was pasted; the sign-in was not completed.', {
              hint: 'Run `school-mcp login --paste` again.',
            });
      }
      pending = nextLine();
      if (event.line.trim().length === 0) continue;
      const parsed = pastedRedirect(event.line, redirectUri);
      if (!parsed.ok) {
        write(`That is not the address to paste (${parsed.reason}). Paste the address the browser landed on:`);
        continue;
      }
      if (await deliver(parsed.deliverTo)) {
        accepted = true;
        write('Received; finishing the sign-in…');
      } else {
        refused = true;
        write(
          'That address was refused: it does not answer this sign-in. Paste the right one, or press Ctrl-D to give up.',
        );
      }
    }
  } finally {
    reader.close();
  }
}

function finish(outcome: Settled): void {
  // The flow's own rejection, passed on as it came.
  // oxlint-disable-next-line typescript/only-throw-error
  if (outcome.error !== undefined) throw outcome.error;
}

/** Hands the answer to the listener; true when the listener took it as this flow's answer. */
async function deliver(callbackUrl: string): Promise<boolean> {
  try {
    const response = await fetch(callbackUrl, { redirect: 'manual', signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    // The listener is gone: the flow has ended, and its outcome says how.
    return false;
  }
}
