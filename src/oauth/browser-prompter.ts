/**
 * The consent prompter for a local terminal: prints the URL to stderr, always, and opens the
 * system browser when one is available, through `open` (argv, no shell) after our own checks.
 */
import type { Logger } from '../log.js';
import { canLaunchBrowser, launchableUrl } from './browser-url.js';
import type { ConsentPrompt, ConsentPrompter } from './consent-prompter.js';

export interface BrowserPrompterOptions {
  logger: Logger;
  /** Where the human-readable URL goes; stderr by default (stdout belongs to JSON-RPC). */
  print?: (line: string) => void;
  /** The launcher; `open` by default. Receives the validated URL as a single argument. */
  openUrl?: (url: string) => Promise<void>;
  platform?: NodeJS.Platform;
  /** Only DISPLAY, WAYLAND_DISPLAY, SSH_CONNECTION, SSH_CLIENT, SSH_TTY and CI are read. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Never launch a browser (the user turned it off). */
  disabled?: boolean;
}

/** BR-03: `open` spawns the platform launcher with the URL as one argv element, never via `sh -c`. */
async function openWithSystem(url: string): Promise<void> {
  const { default: open } = await import('open');
  const child = await open(url, { wait: false });
  // A missing launcher surfaces as an 'error' event after spawn; it must not crash the process.
  child.once('error', () => undefined);
}

export function createBrowserPrompter(options: BrowserPrompterOptions): ConsentPrompter {
  const print = options.print ?? ((line: string) => process.stderr.write(`${line}\n`));
  const launch = options.openUrl ?? openWithSystem;
  const env = options.env ?? {};
  const platform = options.platform ?? process.platform;
  return {
    async present(prompt: ConsentPrompt) {
      // MD-02 pins every endpoint to the school's origin, so the issuer's origin is the
      // authorization endpoint's origin.
      const url = launchableUrl(prompt.url, new URL(prompt.issuer).origin);
      const adding = prompt.newScopes.length > 0 ? prompt.newScopes.join(' ') : prompt.scopes.join(' ');
      print(`school-mcp: approve access to ${new URL(prompt.issuer).host} (${adding}) in your browser:`);
      print(`  ${url}`);
      if (options.disabled) return;
      if (!canLaunchBrowser(platform, env)) {
        print('school-mcp: no browser can be opened here (remote or headless session). Open the URL above on this machine;');
        print('  the sign-in finishes on a 127.0.0.1 address, so from another machine forward that port (ssh -L) first.');
        return;
      }
      try {
        await launch(url);
      } catch (error) {
        options.logger.warn('the browser could not be opened; open the printed URL yourself', { error });
      }
    },
  };
}
