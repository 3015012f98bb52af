/**
 * The system browser and the terminal as ways to reach the user: the URL printed to stderr, and
 * the browser opened when one is available, through `open` (argv, no shell) after our own checks
 * (BR-01, BR-02). `present` does both, for a person at a terminal; serving MCP uses the two
 * halves apart (the link always goes to the log; the browser only when a call chooses it).
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

export interface BrowserPrompter extends ConsentPrompter {
  /** Prints the checked URL and what approving it grants; opens nothing. */
  announce(prompt: ConsentPrompt): void;
  /** Whether a browser may be opened here: the user allows it and a local display is plausible. */
  canOpen(): boolean;
  /** Opens the checked URL in the system browser, printing nothing; does nothing when `canOpen()` is false. */
  open(prompt: ConsentPrompt): Promise<void>;
}

/** BR-03: `open` spawns the platform launcher with the URL as one argv element, never via `sh -c`. */
async function openWithSystem(url: string): Promise<void> {
  const { default: open } = await import('open');
  const child = await open(url, { wait: false });
  // A missing launcher surfaces as an 'error' event after spawn; it must not crash the process.
  child.once('error', () => undefined);
}

export function createBrowserPrompter(options: BrowserPrompterOptions): BrowserPrompter {
  const print = options.print ?? ((line: string) => process.stderr.write(`${line}\n`));
  const launch = options.openUrl ?? openWithSystem;
  const env = options.env ?? {};
  const platform = options.platform ?? process.platform;
  // MD-02 pins every endpoint to the school's origin, so the issuer's origin is the
  // authorization endpoint's origin.
  const checkedUrl = (prompt: ConsentPrompt) => launchableUrl(prompt.url, new URL(prompt.issuer).origin);
  const possible = () => canLaunchBrowser(platform, env);

  const announce = (prompt: ConsentPrompt, url: string) => {
    const adding = prompt.newScopes.length > 0 ? prompt.newScopes.join(' ') : prompt.scopes.join(' ');
    print(`school-mcp: approve access to ${new URL(prompt.issuer).host} (${adding}) in your browser:`);
    print(`  ${url}`);
  };

  const launchChecked = async (url: string) => {
    try {
      await launch(url);
    } catch (error) {
      options.logger.warn('the browser could not be opened; open the printed URL yourself', { error });
    }
  };

  return {
    async present(prompt) {
      const url = checkedUrl(prompt);
      announce(prompt, url);
      if (options.disabled) return;
      if (!possible()) {
        print(
          'school-mcp: no browser can be opened here (remote or headless session). Open the URL above on this machine;',
        );
        print(
          '  the sign-in finishes on a 127.0.0.1 address, so from another machine forward that port (ssh -L) first.',
        );
        return;
      }
      await launchChecked(url);
    },
    announce: (prompt) => announce(prompt, checkedUrl(prompt)),
    canOpen: () => !options.disabled && possible(),
    async open(prompt) {
      const url = checkedUrl(prompt);
      if (!options.disabled && possible()) await launchChecked(url);
    },
  };
}
