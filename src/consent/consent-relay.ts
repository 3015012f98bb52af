/**
 * The sign-in session's prompter while serving MCP. The session asks once per consent flow; the
 * relay prints the link to stderr (for the host's log and the person at the terminal) and keeps
 * the flow's prompt, but opens nothing itself: the consent caller decides per tool call how the link
 * reaches the user. A flow the user declined in the client ends here as denied.
 */
import { OAuthError } from '../oauth/index.js';
import type { ConsentPrompt, ConsentPrompter } from './consent-prompter.js';

export interface ConsentRelay extends ConsentPrompter {
  /** The prompt of the running flow with this link. */
  prompt(url: string): ConsentPrompt | undefined;
  /** Ends the flow with this link as denied; `false` when no such flow runs here. */
  decline(url: string): boolean;
}

export function createConsentRelay(printer: ConsentPrompter): ConsentRelay {
  const running = new Map<string, { readonly prompt: ConsentPrompt; readonly refuse: (error: OAuthError) => void }>();
  return {
    async present(prompt) {
      await printer.present(prompt);
      // Resolving early would only mean "shown"; staying pending keeps the way to decline open.
      await new Promise<void>((resolve, reject) => {
        const finish = () => {
          running.delete(prompt.url);
          resolve();
        };
        running.set(prompt.url, {
          prompt,
          refuse: (error) => {
            running.delete(prompt.url);
            reject(error);
          },
        });
        if (prompt.signal?.aborted) finish();
        else prompt.signal?.addEventListener('abort', finish, { once: true });
      });
    },
    prompt: (url) => running.get(url)?.prompt,
    decline(url) {
      const flow = running.get(url);
      flow?.refuse(
        new OAuthError('OAUTH_ACCESS_DENIED', 'The user declined to open the approval link.', {
          hint: 'Nothing was granted. Ask again when you want to approve it.',
        }),
      );
      return flow !== undefined;
    },
  };
}
