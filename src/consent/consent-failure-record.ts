/**
 * What the token store keeps of a consent flow of this process that did not succeed, so that a
 * process waiting for it can tell the user. Pure.
 */
import { isOAuthError, type StoreRecord } from '../oauth/index.js';

export type FailureRecord =
  /**
   * A flow ended by this process shutting down says nothing about the user's answer: a waiting
   * process starts its own flow rather than inherit a failure, and the store stays as it was.
   */
  | { readonly kind: 'leave-store' }
  | {
      readonly kind: 'record';
      readonly code: string;
      /** The school no longer knows the registration: forget it so the next attempt registers again. */
      readonly forgetRegistration: boolean;
    };

export function failureRecord(error: unknown): FailureRecord {
  if (isOAuthError(error, 'OAUTH_CLOSED') || isOAuthError(error, 'OAUTH_ABORTED')) return { kind: 'leave-store' };
  if (!isOAuthError(error)) return { kind: 'record', code: 'OAUTH_AUTHORIZATION_FAILED', forgetRegistration: false };
  return { kind: 'record', code: error.code, forgetRegistration: error.details?.invalidClient === true };
}

/** `record` with the failure noted; a dynamic registration the school forgot is dropped with its tokens. */
export function recordWithFailure(
  record: StoreRecord,
  failure: Extract<FailureRecord, { kind: 'record' }>,
  at: number,
): StoreRecord {
  const next: StoreRecord = { ...record, lastConsentFailure: { code: failure.code, at } };
  if (failure.forgetRegistration && record.client?.kind === 'dynamic') {
    delete next.client;
    delete next.tokens;
  }
  return next;
}
