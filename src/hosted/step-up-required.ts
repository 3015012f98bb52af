/**
 * The failure a hosted tool call meets when its person lacks a scope: the stable code of any
 * missing permission, local or hosted (the person approves it, and the call is made again),
 * carrying the step-up that asks that person for it, as consent's `PendingConsent` (its
 * single-use link, what it asks for, when it expires).
 */
import type { PendingConsent } from '../consent/index.js';
import { SchoolMcpError } from '../errors.js';

export class StepUpRequired extends SchoolMcpError<'OAUTH_SCOPE_NOT_GRANTED'> {
  readonly consent: PendingConsent;

  constructor(consent: PendingConsent) {
    super(
      'OAUTH_SCOPE_NOT_GRANTED',
      `This needs ${consent.newScopes.join(' ')} at the school, which this person has not granted to school-mcp.`,
      {
        hint: `Ask the user to open ${consent.url} and approve it at the school, then call the tool again.`,
      },
    );
    this.consent = consent;
  }
}

export function isStepUpRequired(error: unknown): error is StepUpRequired {
  return error instanceof StepUpRequired;
}
