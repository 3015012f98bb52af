/**
 * How a consent link reaches the user, best way first. Pure.
 *
 * 1. URL-mode elicitation, when the negotiated revision defines it (2025-11-25 and later; not
 *    2024-11-05, 2025-03-26 nor 2025-06-18, whatever the client claims) and the client declared
 *    `elicitation.url` (an empty `elicitation` object means form mode only, and a server MUST
 *    NOT use a mode the client did not declare): pushed as `elicitation/create` on 2025-11-25
 *    connections, returned as an input-required result on 2026-07-28 ones, which have no
 *    server-to-client requests.
 * 2. The system browser, for a local user with a display who did not turn it off.
 * 3. A tool result with the link, for the agent to show.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { ProtocolEra } from '../server/index.js';

export type ConsentChannel = 'elicit-url' | 'input-required' | 'browser' | 'link';

export interface ChannelInput {
  readonly era: ProtocolEra;
  /** The negotiated protocol revision, `YYYY-MM-DD`; `undefined` when none was negotiated. */
  readonly revision: string | undefined;
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** A system browser can be opened here and the user allows it. */
  readonly browser: boolean;
}

export function supportsUrlElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
  return typeof elicitation?.['url'] === 'object' && elicitation['url'] !== null;
}

/** The first revision whose schema has URL-mode elicitation. */
const FIRST_URL_ELICITATION_REVISION = '2025-11-25';

export function definesUrlElicitation(revision: string | undefined): boolean {
  // Revisions are dates, so their order is the order of their text.
  return revision !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(revision) && revision >= FIRST_URL_ELICITATION_REVISION;
}

export function chooseConsentChannel(input: ChannelInput): ConsentChannel {
  if (definesUrlElicitation(input.revision) && supportsUrlElicitation(input.clientCapabilities))
    return input.era === 'stateless' ? 'input-required' : 'elicit-url';
  return input.browser ? 'browser' : 'link';
}
