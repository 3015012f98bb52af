/**
 * What the consent caller needs from sign-in to ask the user for a permission in the
 * conversation, and nothing more: it never sees a token. Every mode implements it, so one
 * pipeline (`consent-caller.ts`) runs every tool call: `session-consent-broker.ts` on top of the
 * local sign-in session, hosted mode's per-person step-up (`hosted/step-up-broker.ts`) on top of
 * that person's school grant in the shared store; tests script it.
 */
import type { SchoolMcpError } from '../errors.js';

/** A consent flow that waits for the user: its link, and what approving it grants. */
export interface PendingConsent {
  /** The authorization URL the user opens; it carries the flow's `state`. */
  readonly url: string;
  /** Everything the flow asks for: what is granted already plus what is new. */
  readonly scopes: readonly string[];
  /** What approving adds to what is granted now. */
  readonly newScopes: readonly string[];
  /** Milliseconds since the epoch. */
  readonly startedAt: number;
  /** When the flow gives up waiting, milliseconds since the epoch. */
  readonly expiresAt: number;
}

/** How a consent flow ended. */
export type ConsentOutcome =
  | { readonly kind: 'granted' }
  | { readonly kind: 'denied' }
  /** Timed out, partly granted, or refused by the school: the error says which. */
  | { readonly kind: 'failed'; readonly error: SchoolMcpError }
  /** The flow was no longer the current one when asked; calling again tells what is granted. */
  | { readonly kind: 'ended' };

/**
 * How the user learns that an approval is done: the call that asked waits for it and finishes on
 * its own (a URL elicitation, an input-required result the client retries), or the link came in
 * a tool result and the user must ask again.
 */
export type ConsentReach = 'call-waits' | 'ask-again';

export interface ConsentBroker {
  /**
   * The one person every consent of this broker is for, when one process serves many (hosted
   * mode): an input-required `requestState` is sealed to them and refused for anyone else.
   */
  readonly person?: string;
  /** The consent a failed call waits for, when that is why it failed. */
  pendingOf(error: SchoolMcpError): PendingConsent | undefined;
  /**
   * Starts, or joins, a consent for what is granted plus `scopes` (never fewer than granted),
   * without waiting. `granted` when the session already holds every one of them. Throws a
   * `SchoolMcpError` when the scopes may not be asked for (read-only mode).
   */
  stepUp(scopes: readonly string[]): Promise<PendingConsent | 'granted'>;
  /** Settles once the flow ends; never starts another flow. */
  outcome(consent: PendingConsent): Promise<ConsentOutcome>;
  /** The user declined to open the link: the flow ends as denied; settles once it has ended. */
  decline(consent: PendingConsent): Promise<void>;
  /** Whether a system browser may be opened here (local, a display, not turned off). */
  canOpenBrowser(): boolean;
  /** Opens the link in the system browser, after the sign-in's own checks of the URL. */
  openBrowser(consent: PendingConsent): Promise<void>;
  /**
   * The consent a client's retry names by its flow id (`flowId`) when this process did not show
   * it: another instance of a deployment on one store did. `undefined` when it is unknown here,
   * over, or another person's. Absent where only the process that showed a flow can finish it.
   */
  rejoin?(flow: string): Promise<PendingConsent | undefined>;
  /** Told when a link is shown and when a call stops waiting, for a page that tells the user what next. */
  noteReach?(consent: PendingConsent, reach: ConsentReach): Promise<void>;
}
