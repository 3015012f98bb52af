/**
 * A fake browser for consent: it loads the authorization URL from the school, approves or denies
 * on the consent page (or follows the auto-approve redirect), optionally tampers with the
 * callback query, and delivers it to our loopback listener.
 */
import { completeConsent, type ConsentDecision } from '@school-mcp/sandbox';
import type { ConsentPrompt, ConsentPrompter } from '../../../src/consent/index.js';

export interface FakeBrowserOptions {
  decision?: ConsentDecision;
  /** Rewrites the callback URL before it is delivered (CB- tests). */
  tamper?: (callback: URL) => URL | void;
  /** Do nothing: the user never finishes. */
  idle?: boolean;
}

export interface FakeBrowser extends ConsentPrompter {
  readonly prompts: ConsentPrompt[];
  /** Status codes our listener answered with. */
  readonly deliveries: number[];
  /** Resolves after the last delivery finished. */
  settled(): Promise<void>;
}

export function fakeBrowser(options: FakeBrowserOptions = {}): FakeBrowser {
  const prompts: ConsentPrompt[] = [];
  const deliveries: number[] = [];
  const pending: Promise<unknown>[] = [];
  return {
    prompts,
    deliveries,
    async settled() {
      await Promise.allSettled(pending);
    },
    async present(prompt) {
      prompts.push(prompt);
      if (options.idle) return;
      const run = (async () => {
        let callback = await completeConsent(prompt.url, options.decision ?? 'allow');
        callback = options.tamper?.(callback) ?? callback;
        const response = await fetch(callback, { redirect: 'manual' });
        await response.text();
        deliveries.push(response.status);
      })();
      pending.push(run);
      run.catch(() => undefined);
    },
  };
}

/** A prompter that only records; tests deliver callbacks themselves. */
export function recordingPrompter(): ConsentPrompter & { prompts: ConsentPrompt[]; next(): Promise<ConsentPrompt> } {
  const prompts: ConsentPrompt[] = [];
  const waiters: ((prompt: ConsentPrompt) => void)[] = [];
  return {
    prompts,
    async present(prompt) {
      prompts.push(prompt);
      waiters.shift()?.(prompt);
    },
    /** The next prompt to arrive. */
    next() {
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}
