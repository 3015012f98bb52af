/**
 * How a consent link reaches the user, best way first. Pure.
 *
 * 1. URL-mode elicitation, when the client declared `elicitation.url` (an empty `elicitation`
 *    object means form mode only, and a server MUST NOT use a mode the client did not declare):
 *    pushed as `elicitation/create` on 2025-11-25 connections, returned as an input-required
 *    result on 2026-07-28 ones, which have no server-to-client requests.
 * 2. The system browser, for a local user with a display who did not turn it off.
 * 3. A tool result with the link, for the agent to show.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';

export type ProtocolEra = 'legacy' | 'modern';

export type ConsentChannel = 'elicit-url' | 'input-required' | 'browser' | 'link';

export interface ChannelInput {
  readonly era: ProtocolEra;
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** A system browser can be opened here and the user allows it. */
  readonly browser: boolean;
}

export function supportsUrlElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
  return typeof elicitation?.['url'] === 'object' && elicitation['url'] !== null;
}

export function chooseConsentChannel(input: ChannelInput): ConsentChannel {
  if (supportsUrlElicitation(input.clientCapabilities)) return input.era === 'modern' ? 'input-required' : 'elicit-url';
  return input.browser ? 'browser' : 'link';
}
