/**
 * `school-mcp login | logout | status`: the sign-in session, for a person at a plain terminal.
 * Output goes through `write` (one line per call); the consent URL itself is printed by the
 * prompter on stderr.
 */
import type { SignInSession } from '../consent/index.js';
import type { SessionStatus } from '../oauth/index.js';
import type { LineWriter } from './line-writer.js';
import { pasteLogin } from './paste-login.js';

export interface LoginOptions {
  scopes?: readonly string[];
  /** `login --paste`: the redirected address is read from this terminal input instead of a listener hit. */
  paste?: { input: NodeJS.ReadableStream };
}

export async function runLogin(session: SignInSession, options: LoginOptions, write: LineWriter): Promise<void> {
  const scopes = options.scopes ?? [];
  if (options.paste) {
    await pasteLogin(session, scopes, options.paste.input, write);
    formatStatus(await session.status(), Date.now()).forEach((line) => write(line));
    return;
  }
  write(
    scopes.length > 0
      ? `Signing in with ${scopes.join(' ')}; approve the request in your browser.`
      : 'Signing in; approve the request in your browser.',
  );
  // Only asks when the grant does not cover the scopes yet; a signed-in user is not prompted again.
  await session.accessToken({ scopeAlternatives: [scopes], requiredScopes: scopes });
  formatStatus(await session.status(), Date.now()).forEach((line) => write(line));
}

export async function runLogout(session: SignInSession, write: LineWriter): Promise<void> {
  const result = await session.revoke();
  write(result.message);
}

export async function runStatus(session: SignInSession, write: LineWriter): Promise<void> {
  formatStatus(await session.status(), Date.now()).forEach((line) => write(line));
}

/** Pure: the status as aligned lines for a terminal. */
export function formatStatus(status: SessionStatus, now: number): string[] {
  const lines = [`School:     ${status.issuer}`, `Signed in:  ${status.signedIn ? 'yes' : 'no'}`];
  if (status.user) {
    const { name, email, sub, org_id: orgId, roles } = status.user;
    const who = [name, email ? `<${email}>` : undefined].filter(Boolean).join(' ') || sub;
    lines.push(`User:       ${who}${who === sub ? '' : ` (${sub})`}`);
    if (orgId) lines.push(`School id:  ${orgId}`);
    if (roles && roles.length > 0) lines.push(`Roles:      ${roles.join(', ')}`);
  }
  if (status.clientId) lines.push(`Client id:  ${status.clientId}`);
  if (status.signedIn) {
    lines.push(`Scopes:     ${status.scopes.length > 0 ? status.scopes.join(' ') : '(none)'}`);
    lines.push(
      `Expires:    ${status.expiresAt === undefined ? 'unknown (refreshed when the school refuses it)' : describeExpiry(status.expiresAt, now)}`,
    );
    if (status.introspection === 'active') lines.push('Checked:    confirmed by the school just now');
    if (status.introspection === 'inactive')
      lines.push('Checked:    the school no longer accepts this access token; it is renewed on next use');
  } else {
    lines.push('Run `school-mcp login` to sign in.');
  }
  return lines;
}

function describeExpiry(expiresAt: number, now: number): string {
  const minutes = Math.round((expiresAt - now) / 60_000);
  const when = new Date(expiresAt)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
  if (minutes <= 0) return `${when} (expired; refreshed on next use)`;
  return `${when} (in ${minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`})`;
}
