/**
 * The consent caller's `ConsentBroker` on top of the sign-in session: pending consents read from
 * the session's errors, step-up without waiting, and the outcome of one flow without ever
 * starting another.
 */
import { isSchoolMcpError, SchoolMcpError } from '../errors.js';
import type { Logger } from '../log.js';
import { isOAuthError, missingScopes, pendingConsentOf, type PendingConsentDetails } from '../oauth/index.js';
import type { BrowserPrompter } from './browser-prompter.js';
import type { ConsentBroker, ConsentOutcome, PendingConsent } from './consent-broker.js';
import type { ConsentRelay } from './consent-relay.js';
import type { TaskQueue } from './one-at-a-time.js';
import type { SignInSession } from './sign-in-session.js';

export interface SessionConsentBrokerOptions {
  readonly session: SignInSession;
  readonly relay: ConsentRelay;
  /** The queue the token requests go through, so that a step-up never races them to open a flow. */
  readonly tokenQueue: TaskQueue;
  readonly logger: Logger;
  /** Opens the link in the system browser when the user allows it and one is available. */
  readonly browser: BrowserPrompter;
  /** How long a flow waits for the user before it times out. */
  readonly flowTimeoutMs: number;
}

/** Flows are one at a time; a few ended ones are plenty to answer late askers. */
const KEPT_OUTCOMES = 16;

export function createSessionConsentBroker(options: SessionConsentBrokerOptions): ConsentBroker {
  const { session, relay } = options;
  /** By link, kept after the flow ended: a call may ask after the end, and must learn how it ended. */
  const outcomes = new Map<string, Promise<ConsentOutcome>>();

  const toPending = (details: PendingConsentDetails): PendingConsent => ({
    url: details.url,
    scopes: details.scopes,
    newScopes: missingScopes(session.grantedScopes(), details.scopes),
    startedAt: details.startedAt,
    expiresAt: details.startedAt + options.flowTimeoutMs,
  });

  const settle = (error: unknown): ConsentOutcome => {
    if (isOAuthError(error, 'OAUTH_ACCESS_DENIED')) return { kind: 'denied' };
    if (isSchoolMcpError(error)) return { kind: 'failed', error };
    return {
      kind: 'failed',
      error: new SchoolMcpError('OAUTH_AUTHORIZATION_FAILED', 'The approval failed unexpectedly.', {
        cause: error,
        hint: 'Call the tool again.',
      }),
    };
  };

  const outcomeOf = (consent: PendingConsent): Promise<ConsentOutcome> => {
    const known = outcomes.get(consent.url);
    if (known) return known;
    // Joining by scopes would start a new flow once this one is over; only the current one is joined.
    if (session.pendingConsent()?.url !== consent.url) return Promise.resolve({ kind: 'ended' });
    const outcome = session.stepUp(consent.scopes).then((): ConsentOutcome => ({ kind: 'granted' }), settle);
    outcomes.set(consent.url, outcome);
    for (const url of outcomes.keys()) {
      if (outcomes.size <= KEPT_OUTCOMES) break;
      outcomes.delete(url);
    }
    return outcome;
  };

  return {
    pendingOf(error) {
      const details = pendingConsentOf(error);
      return details === undefined || details.url === '' ? undefined : toPending(details);
    },

    async stepUp(scopes) {
      try {
        await options.tokenQueue(() => session.stepUp(scopes, { waitMs: 0 }));
        return 'granted';
      } catch (error) {
        const details = pendingConsentOf(error);
        if (details === undefined || details.url === '') throw error;
        return toPending(details);
      }
    },

    outcome: outcomeOf,

    async decline(consent) {
      const ending = outcomeOf(consent);
      if (!relay.decline(consent.url))
        options.logger.info('the declined approval runs in another process; it ends there on its own');
      else await ending;
    },

    canOpenBrowser: () => options.browser.canOpen(),

    async openBrowser(consent) {
      // A flow run by another school-mcp process was opened there already.
      const prompt = relay.prompt(consent.url);
      if (prompt !== undefined) await options.browser.open(prompt);
    },
  };
}
