/**
 * What may be handed to the system's URL launcher (CVE-2025-6514 class). Pure.
 * BR-01: only https (or loopback http) on the authorization endpoint's origin, no credentials.
 * BR-02: the exact string passed on has every shell-significant character percent-encoded.
 */
import { isLoopbackAddress } from '../network/index.js';
import { OAuthError } from '../oauth/index.js';

/**
 * Characters a shell or PowerShell could give meaning to. `&`, `=` and `?` stay: they are the
 * query's own syntax, and launchers receive the URL as one argv element.
 */
const SHELL_SIGNIFICANT = /[$`"'();|<>{}\\^!*\s\u0000-\u001f\u007f]/g;

function rejected(why: string): OAuthError {
  return new OAuthError('OAUTH_BROWSER_URL_REJECTED', `Refusing to open the sign-in URL: ${why}.`, {
    hint: 'The school sent an unexpected authorization endpoint; check the --school URL.',
  });
}

export function launchableUrl(candidate: string, allowedOrigin: string): string {
  if (/[\u0000-\u001f\u007f]/.test(candidate)) throw rejected('it contains control characters');
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    throw rejected('it is not a URL');
  }
  const loopbackHttp = url.protocol === 'http:' && isLoopbackAddress(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) throw rejected(`the scheme ${url.protocol} is not allowed`);
  if (url.username || url.password) throw rejected('it carries credentials');
  if (url.origin !== allowedOrigin) throw rejected(`it is not on the authorization server's origin ${allowedOrigin}`);
  return url.href.replace(SHELL_SIGNIFICANT, (character) => percentEncode(character));
}

function percentEncode(character: string): string {
  return [...new TextEncoder().encode(character)]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
}

/**
 * BR-04: when a browser can plausibly be opened. Not over SSH, not in CI, and on Linux/BSD not
 * without a display. Pure: the environment comes in.
 */
export function canLaunchBrowser(
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (env.SSH_CONNECTION || env.SSH_CLIENT || env.SSH_TTY) return false;
  if (env.CI) return false;
  if (platform === 'win32' || platform === 'darwin') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}
