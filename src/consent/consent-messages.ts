/**
 * The words of re-consent: what the user is asked, and the tool results the agent gets when the
 * call cannot go on yet. Pure. Scopes are always named together with the school's own
 * description of them, so the user knows what approving grants.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { SchoolMcpError } from '../errors.js';
import type { PendingConsent } from './consent-broker.js';

export interface ConsentWording {
  readonly toolName: string;
  /** The school as the user knows it, e.g. its host. */
  readonly school: string;
  /** Scope → words, from the OpenAPI document's oauth2 flow. */
  readonly scopeDescriptions: Readonly<Record<string, string>>;
  /**
   * `school-mcp login ...` for this school, to run in a terminal, without `--scopes`; absent when
   * a terminal sign-in cannot serve this server (a demo school lives only inside it).
   */
  readonly loginCommand?: string;
  /** `--demo`: the school lives inside this process, so no sign-in can outlive it. */
  readonly demoSchool?: boolean;
  /** Hosted mode: the approval comes back to the server, not to a process on the user's computer. */
  readonly hosted?: boolean;
}

/** Why the process that owns the approval is going away. */
export type LeavingReason = 'input-closed' | 'stopped';

/** `coupons:write (Write access to coupons), orders:read (Read access to orders)`. */
export function describeScopes(scopes: readonly string[], descriptions: Readonly<Record<string, string>>): string {
  const named = [...new Set(scopes)].sort().map((scope) => {
    const words = Object.hasOwn(descriptions, scope) ? descriptions[scope]!.trim() : '';
    return words === '' || words === scope ? scope : `${scope} (${words})`;
  });
  return named.join(', ');
}

/** What approving adds; on a first sign-in, everything the flow asks for. */
function granting(consent: PendingConsent, wording: ConsentWording): string {
  return describeScopes(consent.newScopes.length > 0 ? consent.newScopes : consent.scopes, wording.scopeDescriptions);
}

/** The message of a URL-mode elicitation: short, and says what is granted where. */
export function elicitationMessage(consent: PendingConsent, wording: ConsentWording): string {
  return `${wording.toolName} needs your approval at ${wording.school} to grant: ${granting(consent, wording)}. Open the link to approve or deny at the school.`;
}

/** A progress line while the call waits. */
export function waitingMessage(consent: PendingConsent, wording: ConsentWording): string {
  return `Waiting for approval at ${wording.school} of ${consent.newScopes.length > 0 ? consent.newScopes.join(' ') : consent.scopes.join(' ')}`;
}

/**
 * The call has not run: the user still has to approve. The link is shown for the agent to pass
 * on, with what it grants and the promise that calling again continues with the same approval.
 */
export function pendingResult(consent: PendingConsent, wording: ConsentWording, waitedMs: number): CallToolResult {
  if (wording.hosted === true) return hostedPendingResult(consent, wording, waitedMs);
  const lines = [
    `${wording.toolName} has not run yet: it needs a permission at ${wording.school} that is not granted: ${granting(consent, wording)}.`,
    ...(waitedMs > 0 ? [`The approval is still pending (waited ${Math.round(waitedMs / 1000)} s).`] : []),
    'Ask the user to open this link and approve it:',
    consent.url,
    `Once approved, call ${wording.toolName} again with the same arguments and it continues, as long as this school-mcp process keeps running: ` +
      `the school sends the approval back to it on this computer. The link stays valid until ${new Date(consent.expiresAt).toISOString().slice(11, 16)} UTC, ` +
      'and calling again before then reuses it. Nothing was changed at the school.',
    `If the host starts a new school-mcp for every call (it ends the server after each answer, as the MCP Inspector CLI does), this link cannot complete. ${otherWays(consent, wording)}`,
    ...(wording.demoSchool === true ? [DEMO_IN_PER_CALL_HOST] : []),
  ];
  return textResult(lines);
}

/** Hosted: each link is single-use, and the school answers the server, whichever instance asked. */
function hostedPendingResult(consent: PendingConsent, wording: ConsentWording, waitedMs: number): CallToolResult {
  return textResult([
    `${wording.toolName} has not run yet: it needs a permission at ${wording.school} that this person has not granted to school-mcp: ${granting(consent, wording)}.`,
    ...(waitedMs > 0 ? [`The approval is still pending (waited ${Math.round(waitedMs / 1000)} s).`] : []),
    'Ask the user to open this link and approve it at the school, signed in as themselves:',
    consent.url,
    `Once approved, call ${wording.toolName} again with the same arguments. The link works once, until ${new Date(consent.expiresAt).toISOString().slice(11, 16)} UTC. Nothing was changed at the school.`,
  ]);
}

/**
 * The call stopped because the process that owns the approval is going away; its link dies with
 * it, so nothing here promises that calling again continues.
 */
export function leavingResult(
  consent: PendingConsent | undefined,
  wording: ConsentWording,
  reason: LeavingReason,
): CallToolResult {
  const why = reason === 'input-closed' ? 'the host closed its connection to it' : 'it was asked to stop';
  return textResult([
    `${wording.toolName} did not run: school-mcp is shutting down (${why}), and the approval at ${wording.school} it was waiting for ends with it; ` +
      'its link no longer works. Nothing was changed at the school.',
    otherWays(consent, wording),
    ...(wording.demoSchool === true ? [DEMO_IN_PER_CALL_HOST] : []),
  ]);
}

/**
 * `--demo` in a host that ends the server after each answer: the demo school ends with it, and
 * the next call meets a new school on a new port, so only a school that outlives the call helps.
 */
const DEMO_IN_PER_CALL_HOST =
  'With --demo no sign-in can complete in such a host: the demo school lives inside that school-mcp process, and every call starts a new one. ' +
  'Run the sandbox school on its own in a terminal with `school-mcp sandbox --port 8787`, and start the server with `--school http://127.0.0.1:8787` in place of `--demo`; ' +
  'then sign in once with `school-mcp login --school http://127.0.0.1:8787`, and every call finds the grant.';

/** Sign-in that outlives this process: the terminal command, or a call that waits while the user approves. */
function otherWays(consent: PendingConsent | undefined, wording: ConsentWording): string {
  const waiting =
    "start the server with `--link-wait 40`, so that a call waits while the user approves from the link in the server's log.";
  if (wording.loginCommand === undefined) return `Instead, ${waiting}`;
  const scopes = consent === undefined ? '' : ` --scopes "${[...new Set(consent.scopes)].sort().join(' ')}"`;
  return `Instead, sign in once from a terminal with \`${wording.loginCommand}${scopes}\` and then call ${wording.toolName} again; or ${waiting}`;
}

export function deniedResult(
  consent: PendingConsent,
  wording: ConsentWording,
  how: 'denied' | 'declined',
): CallToolResult {
  const what = how === 'declined' ? 'declined to open the approval link for' : 'did not approve';
  return textResult([
    `The user ${what} ${granting(consent, wording)} at ${wording.school}, so ${wording.toolName} did not run and nothing was changed.`,
    `To ask again, call ${wording.toolName} again when the user wants to approve it: a new approval is asked for.`,
  ]);
}

/** ERR-03: the school refuses although the scopes it names were granted; no further consent. */
export function stepUpExhaustedResult(wording: ConsentWording, scopes: readonly string[]): CallToolResult {
  return textResult([
    `The school keeps refusing ${wording.toolName} for lack of ${describeScopes(scopes, wording.scopeDescriptions)}, although it was asked for and granted.`,
    `school-mcp stopped asking and will not ask again for ${wording.toolName} in this session (retry limit reached).`,
    'Next step: the signed-in user may not hold the role this needs; ask a school administrator, or sign out and sign in as another user.',
  ]);
}

export function consentFailedResult(wording: ConsentWording, error: SchoolMcpError): CallToolResult {
  // AZ-08: no approval was attempted, so none "did not succeed".
  if (error.code === 'OAUTH_READ_ONLY') {
    return textResult([
      `${wording.toolName} did not run (${error.code}): ${error.message}`,
      ...(error.hint === undefined ? [] : [`Next step: ${error.hint}`]),
    ]);
  }
  return textResult([
    `${wording.toolName} did not run: the approval at ${wording.school} did not succeed (${error.code}). ${error.message}`,
    ...(error.hint === undefined ? [] : [`Next step: ${error.hint}`]),
  ]);
}

/** Over HTTP, a flow started by another MCP session is not shown to this one. */
export function foreignFlowResult(wording: ConsentWording): CallToolResult {
  return textResult([
    `${wording.toolName} did not run: another connection is waiting for the user's approval at ${wording.school}.`,
    'Next step: call it again once that approval has finished.',
  ]);
}

export function invalidStateResult(wording: ConsentWording): CallToolResult {
  return textResult([
    `${wording.toolName} did not run: the approval state sent back was altered, has expired, or belongs to another connection, and was refused.`,
    `Next step: call ${wording.toolName} again; a fresh approval is asked for if one is still needed.`,
  ]);
}

export function cancelledResult(wording: ConsentWording): CallToolResult {
  return textResult([
    `${wording.toolName} was cancelled while waiting for approval; the approval stays open, and calling again picks it up.`,
  ]);
}

/** Not data: `isError`, so a tool's output schema is never checked against these words. */
function textResult(lines: readonly string[]): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }] };
}
