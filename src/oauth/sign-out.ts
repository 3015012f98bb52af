/**
 * The decisions of a sign-out (RFC 7009): what to revoke, what the record keeps, and what the user
 * is told. Tokens are forgotten locally before any request; a refresh token whose revocation was
 * not confirmed is kept aside to be retried at the next start, never used again (RV-03). Pure.
 */
import type { SchoolMetadata } from './discovery.js';
import { revocationQueue } from './revocation.js';
import type { PendingRevocation, StoreRecord } from './store-record.js';

export interface SignOutReport {
  revoked: boolean;
  message: string;
}

export type SignOutPlan =
  | { readonly kind: 'nothing'; readonly report: SignOutReport }
  | { readonly kind: 'revoke'; readonly queue: PendingRevocation[] };

/** How the school took part: not reached, reached without a revocation endpoint, or reached with one. */
export type RevocationSchool = 'unreachable' | 'no-endpoint' | 'offered';

export interface SignOutOutcome {
  readonly report: SignOutReport;
  /** The refresh tokens to keep aside for the retry at the next start. */
  readonly keep: PendingRevocation[];
}

/** Pure: how the school takes part in a sign-out, from its metadata (`undefined`: it could not be reached). */
export function revocationSchoolOf(metadata: SchoolMetadata | undefined): RevocationSchool {
  if (!metadata) return 'unreachable';
  return metadata.server.revocation_endpoint ? 'offered' : 'no-endpoint';
}

/** Pure: the record with its tokens forgotten (RV-03: before any request to the school). */
export function withoutTokens(record: StoreRecord): StoreRecord {
  const next = { ...record };
  delete next.tokens;
  return next;
}

/** Pure: the record keeping exactly `keep` aside for revocation. */
export function withPendingRevocation(record: StoreRecord, keep: readonly PendingRevocation[]): StoreRecord {
  const next = { ...record };
  if (keep.length > 0) next.pendingRevocation = [...keep];
  else delete next.pendingRevocation;
  return next;
}

/** Pure: what a sign-out revokes, from the record as it was before the tokens were forgotten (RV-01). */
export function signOutPlan(before: StoreRecord | undefined): SignOutPlan {
  const tokens = before?.tokens;
  const queue = revocationQueue({
    ...(tokens
      ? { accessToken: tokens.accessToken, ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}) }
      : {}),
    clientId: tokens?.clientId ?? '',
    pending: before?.pendingRevocation ?? [],
  });
  if (queue.length === 0)
    return { kind: 'nothing', report: { revoked: false, message: 'Not signed in to this school; nothing to revoke.' } };
  return { kind: 'revoke', queue };
}

/** Pure: what the user is told and what is kept, once every revocation was tried. */
export function signOutOutcome(unconfirmed: readonly PendingRevocation[], school: RevocationSchool): SignOutOutcome {
  const keep = unconfirmed.filter((item) => item.hint === 'refresh_token');
  if (unconfirmed.length === 0)
    return {
      keep,
      report: {
        revoked: true,
        message: 'Signed out: the school revoked the tokens and they were removed from this computer.',
      },
    };
  const why =
    school === 'unreachable'
      ? 'the school could not be reached'
      : school === 'no-endpoint'
        ? 'the school offers no revocation endpoint'
        : 'revocation not confirmed by the school';
  const retry = keep.length > 0 ? ' Revocation will be retried the next time school-mcp starts.' : '';
  return {
    keep,
    report: {
      revoked: false,
      message: `Signed out on this computer, but ${why}: the tokens may stay valid at the school until they expire.${retry}`,
    },
  };
}
