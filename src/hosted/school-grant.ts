/**
 * A staff member's grant at the school, and what a new one of a person who already has one
 * becomes: school-mcp keeps one school grant per person, sealed in the store under their subject
 * and shared by all their MCP clients, and it only grows by the person's consent. Pure.
 *
 * Why this way: who signed in is known only once the school has answered, so a sign-in through a
 * new client asks the school for the integration's scopes, not for what this person already
 * granted. Two school grants cannot be merged into one token, so the answer is one of them:
 * - the new one when it covers the kept one (a first sign-in, an equal grant, a step-up): it is
 *   fresh and known to be alive, and the replaced one is revoked;
 * - the kept one when it is wider (the person stepped up through another client): the new tokens
 *   are revoked, and only the person's claims (name, email, roles) are taken from the new answer;
 * - when neither covers the other (the integration's scopes changed since, or two step-ups of two
 *   clients crossed), the person is still at the school: they are asked once more, for the union,
 *   and must come back as the same person. The kept grant stays until then (and when they decline,
 *   that sign-in or step-up ends as declined), and the answer to that second request is not widened
 *   again: if it still does not cover the kept one, the kept one stays, and what it lacks is asked
 *   for by the step-up of the first call that needs it.
 * Every token replaced or discarded is revoked at the school (RFC 7009).
 * @see SECURITY.md HOST-32
 */
import { isFiniteNumber, isText, listOf, objectWith, optional, type RecordKind } from '../grant-store/index.js';
import { includesAll, unionScopes } from '../oauth/index.js';

export const SCHOOL_GRANTS = 'school-grant';

export interface SchoolGrant {
  readonly sub: string;
  readonly name?: string;
  readonly email?: string;
  readonly roles?: readonly string[];
  readonly accessToken: string;
  readonly refreshToken?: string;
  readonly scopes: readonly string[];
  /** Seconds since the epoch. */
  readonly expiresAt?: number;
}

/** A person's school grant as the store gives it back (ST-17). */
export const SCHOOL_GRANT_RECORD: RecordKind<SchoolGrant> = {
  namespace: SCHOOL_GRANTS,
  check: objectWith({
    sub: isText,
    name: optional(isText),
    email: optional(isText),
    roles: optional(listOf(isText)),
    accessToken: isText,
    refreshToken: optional(isText),
    scopes: listOf(isText),
    expiresAt: optional(isFiniteNumber),
  }),
};

export type GrantMerge =
  /** Store `grant`; revoke `discard` (the grant it replaces), when there is one. */
  | { readonly kind: 'store'; readonly grant: SchoolGrant; readonly discard?: SchoolGrant }
  /** Ask the school for `scopes` as the same person; revoke `discard` (the new answer), keep the stored grant. */
  | { readonly kind: 'ask-for-union'; readonly scopes: readonly string[]; readonly discard: SchoolGrant };

function covers(wider: SchoolGrant, narrower: SchoolGrant): boolean {
  return includesAll(wider.scopes, narrower.scopes);
}

/** The kept grant's tokens and scopes with the claims of the newer answer about the same person. */
function withClaimsOf(kept: SchoolGrant, newer: SchoolGrant): SchoolGrant {
  const { name: _name, email: _email, roles: _roles, ...tokens } = kept;
  return {
    ...tokens,
    ...(newer.name === undefined ? {} : { name: newer.name }),
    ...(newer.email === undefined ? {} : { email: newer.email }),
    ...(newer.roles === undefined ? {} : { roles: newer.roles }),
  };
}

/**
 * `existing` is the person's stored grant, `incoming` the school's new answer for the same person;
 * `mayAskAgain` is false for the answer to a request for the union, so that it is asked once.
 */
export function mergeSchoolGrants(
  existing: SchoolGrant | undefined,
  incoming: SchoolGrant,
  mayAskAgain: boolean,
): GrantMerge {
  if (existing === undefined) return { kind: 'store', grant: incoming };
  if (existing.sub !== incoming.sub) throw new RangeError("a school grant merges only with the same person's");
  if (covers(incoming, existing)) return { kind: 'store', grant: incoming, discard: existing };
  if (covers(existing, incoming) || !mayAskAgain)
    return { kind: 'store', grant: withClaimsOf(existing, incoming), discard: incoming };
  return { kind: 'ask-for-union', scopes: unionScopes(existing.scopes, incoming.scopes), discard: incoming };
}
