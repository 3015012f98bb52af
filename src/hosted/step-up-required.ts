/**
 * The failure a hosted tool call meets when its person lacks a scope: the stable code of any
 * missing permission, plus what a caller needs to reach that person (the single-use link) and to
 * know when they granted it (the person's grant in the store covers the scopes).
 */
import { SchoolMcpError } from '../errors.js';

export class StepUpRequired extends SchoolMcpError<'OAUTH_SCOPE_NOT_GRANTED'> {
  readonly stepUpUrl: string;
  readonly missing: readonly string[];
  /** Whether the person's grant covers the missing scopes now. */
  readonly isGranted: () => Promise<boolean>;

  constructor(stepUpUrl: string, missing: readonly string[], isGranted: () => Promise<boolean>) {
    super('OAUTH_SCOPE_NOT_GRANTED', `This needs ${missing.join(' ')} at the school, which this person has not granted to school-mcp.`, {
      hint: `Ask the user to open ${stepUpUrl} and approve it at the school, then call the tool again.`,
    });
    this.stepUpUrl = stepUpUrl;
    this.missing = missing;
    this.isGranted = isGranted;
  }
}

export function isStepUpRequired(error: unknown): error is StepUpRequired {
  return error instanceof StepUpRequired;
}
