/**
 * The two ways a sign-in session is opened, and the one place where the browser prompter is
 * made for it (from the user's `--no-browser` choice and the environment):
 * - for a person at a terminal (`login`): the link is printed and the browser opened;
 * - for a conversation (serving MCP): the link is printed to the log only, and each tool call
 *   chooses how it reaches the user (URL elicitation, input-required, the browser, or the link in
 *   the result), then waits a bounded time. This is the interface the server's wiring calls, once
 *   per signed-in user.
 */
import type { AccessTokenSource } from '../executor/index.js';
import { DEFAULT_CONSENT_TIMEOUT_MS } from '../oauth/index.js';
import type { OperationCaller } from '../server/index.js';
import { createBrowserPrompter, type BrowserPrompter } from './browser-prompter.js';
import { createConsentCaller, type ConsentCallerOptions } from './consent-caller.js';
import type { LeavingReason } from './consent-messages.js';
import { createConsentRelay } from './consent-relay.js';
import { oneAtATime } from './one-at-a-time.js';
import { createConsentStateCodec } from './request-state.js';
import { createSessionConsentBroker } from './session-consent-broker.js';
import type { SignInSessionConfig } from './session-config.js';
import { createSignInSession, type SignInSession } from './sign-in-session.js';
import { createStepUpBudget } from './step-up-budget.js';

/** Everything of a sign-in session but how the user is reached, which is decided here. */
export interface SignInSettings extends Omit<SignInSessionConfig, 'prompter'> {
  /** The user allows a browser to be opened (`--no-browser` turns it off). */
  readonly openBrowser: boolean;
  /** Only DISPLAY, WAYLAND_DISPLAY, SSH_* and CI are read. */
  readonly environment: Readonly<Record<string, string | undefined>>;
}

function browserFor(settings: SignInSettings): BrowserPrompter {
  return createBrowserPrompter({ logger: settings.logger, env: settings.environment, disabled: !settings.openBrowser });
}

function sessionConfig(settings: SignInSettings, prompter: SignInSessionConfig['prompter']): SignInSessionConfig {
  const { openBrowser: _openBrowser, environment: _environment, ...config } = settings;
  return { ...config, prompter };
}

/** `login`, `logout`, `status`: a consent prints the link and opens the browser. */
export function openTerminalSignIn(settings: SignInSettings): SignInSession {
  return createSignInSession(sessionConfig(settings, browserFor(settings)));
}

export interface ConversationConsentOptions extends Pick<
  ConsentCallerOptions,
  'execute' | 'scopeDescriptions' | 'schoolName' | 'waitMs' | 'linkWaitMs' | 'loginCommand' | 'demoSchool'
> {
  readonly settings: SignInSettings;
}

/** One signed-in user's sign-in and consent while serving MCP. */
export interface ConversationConsent {
  readonly session: SignInSession;
  /**
   * For the executor: token requests never wait for the user. A needed consent comes back at once
   * as pending, and `call` shows it and waits, bounded by `--consent-wait`; the flow stays open
   * longer than that, and the next call joins it.
   */
  readonly tokens: AccessTokenSource;
  /** One tool call: the operation run, and when a permission is missing, consent asked for and the run repeated. */
  readonly call: OperationCaller;
  /** Revokes the grant, and forgets the step-up refusals recorded for it. */
  signOut(): Promise<{ revoked: boolean; message: string }>;
  /** This process is going away: waiting calls answer now, saying that the link ends with it. */
  leave(reason: LeavingReason): void;
  close(): Promise<void>;
}

export function openConversationConsent(options: ConversationConsentOptions): ConversationConsent {
  const { settings } = options;
  const browser = browserFor(settings);
  // The session only prints the link; per tool call the caller decides how it reaches the user.
  const relay = createConsentRelay({ present: async (prompt) => browser.announce(prompt) });
  const session = createSignInSession(sessionConfig(settings, relay));

  // Two calls arriving together must not both find no flow and both open one: one at a time.
  const tokenQueue = oneAtATime();
  const tokens: AccessTokenSource = {
    accessToken: (request) => tokenQueue(() => session.accessToken({ ...request, waitMs: 0 })),
    refreshAfterRejection: (rejected, signal) =>
      tokenQueue(() => session.refreshAfterRejection(rejected, signal, { waitMs: 0 })),
  };

  // Shared with sign-out: refusals recorded for one grant must not outlive it.
  const budget = createStepUpBudget();
  const leaving = new AbortController();
  const call = createConsentCaller({
    execute: options.execute,
    budget,
    broker: createSessionConsentBroker({
      session,
      tokenQueue,
      relay,
      logger: settings.logger,
      browser,
      flowTimeoutMs: settings.consentTimeoutMs ?? DEFAULT_CONSENT_TIMEOUT_MS,
    }),
    scopeDescriptions: options.scopeDescriptions,
    schoolName: options.schoolName,
    waitMs: options.waitMs,
    ...(options.linkWaitMs === undefined ? {} : { linkWaitMs: options.linkWaitMs }),
    // Made at launch: a state minted by an earlier run of school-mcp is refused.
    requestState: createConsentStateCodec(),
    logger: settings.logger.child('consent'),
    leaving: leaving.signal,
    ...(options.loginCommand === undefined ? {} : { loginCommand: options.loginCommand }),
    ...(options.demoSchool === true ? { demoSchool: true } : {}),
  });

  return {
    session,
    tokens,
    call,
    async signOut() {
      budget.clear();
      return session.revoke();
    },
    leave(reason) {
      if (!leaving.signal.aborted) leaving.abort(reason);
    },
    close: () => session.close(),
  };
}
