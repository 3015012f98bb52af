/**
 * How a consent URL reaches the user is the caller's business (browser, URL elicitation, a link
 * in a tool result). The session only asks once per flow.
 */

export interface ConsentPrompt {
  /** The authorization URL to open. */
  url: string;
  /** Everything the flow asks for (granted ∪ new). */
  scopes: string[];
  /** What this consent adds to what is already granted. */
  newScopes: string[];
  issuer: string;
  /** Aborted when the flow ends (approved, denied, timed out or closed). */
  signal?: AbortSignal;
}

export interface ConsentPrompter {
  /**
   * Shows the URL. Resolving means "shown", not "approved". Rejecting with an `OAuthError` coded
   * `OAUTH_ACCESS_DENIED` ends the flow as denied; any other rejection is logged and the flow
   * keeps waiting (the URL was also printed).
   */
  present(prompt: ConsentPrompt): Promise<void>;
}
