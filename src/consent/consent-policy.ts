/**
 * What one consent asks for, and what it may never ask for. Pure. Every consent of the session
 * (a first call, a declared scope, a school's 403 challenge, a refused refresh, `login`) is decided
 * here, so the read-only rule holds on every path.
 *
 * - `reads-first` (the default): the first consent asks for the reads of the enabled toolsets, so
 *   reading never prompts twice; a write scope is asked for at its first need, together with the
 *   reads of its group, so that verifying a write never prompts again.
 * - `least` (`--scopes least`): only what the call needs.
 * - `fixed` (`--scopes "a b"`): the chosen set up front, plus what a call needs.
 * Each adds what is granted and `openid profile`: a grant grows by union, never shrinks by accident
 * (RFC 9700 §2.3).
 *
 * Read-only (AZ-08): a consent asks only for scopes that some read operation of the document
 * accepts (and the baseline). Which scopes those are comes from the document's operations, never
 * from a scope's spelling; anything else, whoever names it, is refused before a prompt.
 * @see SECURITY.md AZ-06
 * @see SECURITY.md AZ-08
 */
import { BASELINE_SCOPES, normalizeScopes, unionScopes } from '../oauth/index.js';

export type ScopePolicy = { mode: 'reads-first' } | { mode: 'least' } | { mode: 'fixed'; scopes: string[] };

/** The API document's facts about scopes, as far as consent needs them (the app takes them from the OpenAPI part). */
export interface DocumentScopes {
  /** Scopes that some read operation accepts. */
  readonly readable: readonly string[];
  /** The reads of the enabled toolsets. */
  readonly upFront: readonly string[];
  /** A scope that lets data be changed → the reads of its group. */
  readonly readsWith: Readonly<Record<string, readonly string[]>>;
}

/** Nothing known of a document (`login`, `logout`): reads-first asks for what is needed, read-only for the baseline only. */
export const NO_DOCUMENT: DocumentScopes = { readable: [], upFront: [], readsWith: {} };

export interface ConsentRequest {
  readonly granted: readonly string[];
  /** What the call needs: an operation's scopes, or a challenge's. */
  readonly required: readonly string[];
  readonly policy: ScopePolicy;
  readonly readOnly: boolean;
  readonly document: DocumentScopes;
}

/**
 * The scopes one consent asks for. In read-only mode, granted scopes that no read accepts (a
 * grant made without `--read-only`) are left out; required ones are checked with
 * `refusedInReadOnly` first, and refused rather than dropped.
 */
export function consentScopes(request: ConsentRequest): string[] {
  const wanted = unionScopes(request.granted, request.required, chosenScopes(request), BASELINE_SCOPES);
  if (!request.readOnly) return wanted;
  const allowed = allowedInReadOnly(request.document);
  return wanted.filter((scope) => allowed.has(scope));
}

/** The scopes of `scopes` that a read-only consent may not ask for: no read operation accepts them. */
export function refusedInReadOnly(scopes: readonly string[], document: DocumentScopes): string[] {
  const allowed = allowedInReadOnly(document);
  return normalizeScopes(scopes.filter((scope) => !allowed.has(scope)));
}

function chosenScopes({ policy, required, document }: ConsentRequest): readonly string[] {
  switch (policy.mode) {
    case 'fixed':
      return policy.scopes;
    case 'least':
      return [];
    case 'reads-first':
      return unionScopes(
        document.upFront,
        ...required.map((scope) => (Object.hasOwn(document.readsWith, scope) ? (document.readsWith[scope] ?? []) : [])),
      );
  }
}

function allowedInReadOnly(document: DocumentScopes): ReadonlySet<string> {
  return new Set([...document.readable, ...BASELINE_SCOPES]);
}
