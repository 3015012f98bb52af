/**
 * Security requirements to OAuth scopes, and scopes to toolsets.
 *
 * `security` is an OR of requirement objects, each an AND over schemes (OpenAPI 3.x Security
 * Requirement Object). The operation's own `security` replaces the root one; `[]` makes the
 * operation public, and so does an empty alternative `{}` unless a scoped alternative stands
 * beside it: then the school serves anonymous callers a public view only (the school contract:
 * token-less requests are served as anonymous), so the scopes are kept for sign-in and the
 * operation is marked `anonymousAccess`. Scopes come from `oauth2` and `openIdConnect`
 * schemes. The bridge can only present a bearer token, so alternatives that need an `apiKey`,
 * `http basic` or mutual-TLS scheme are dropped; when no alternative is left, the operation
 * still needs sign-in (`[[]]`).
 *
 * A scope's group is the word that names what it is about: `courses:read` and `courses:write` both
 * belong to `courses`, and so do the URL-form `https://www.googleapis.com/auth/classroom.courses`
 * and `...classroom.courses.readonly`. How operations are grouped into toolsets is decided in
 * `grouping.ts`.
 * @see SECURITY.md API-09
 */
import { isQuotableScope } from '../school-text/index.js';
import { arrayOr, entriesOf, isRecord, recordOr, stringOr } from './json-value.js';
import { plainText } from './plain-text.js';
import { snakeCase } from './tool-names.js';

export type ScopeAlternatives = readonly (readonly string[])[];

export const PUBLIC_TOOLSET = 'public';

/** Words naming an action in a scope, used only to find the scope's group; what a scope allows is decided by operations (scope-roles.ts). */
const SCOPE_ACTIONS = new Set([
  'read',
  'readonly',
  'write',
  'admin',
  'manage',
  'create',
  'update',
  'delete',
  'all',
  'full',
]);
const BEARER_SCHEME_TYPES = new Set(['oauth2', 'openidconnect']);
/** A scope's words in a consent text: a short phrase such as "Read access to coupons". */
const MAX_SCOPE_DESCRIPTION_LENGTH = 120;

export interface SecurityRequirements {
  readonly alternatives: ScopeAlternatives;
  /** An empty alternative `{}` stood beside scoped ones: anonymous callers get a public view. */
  readonly anonymousAccess: boolean;
}

/** The scope alternatives of one operation; `operationSecurity` is undefined when it declares none. */
export function securityRequirements(
  operationSecurity: unknown,
  rootSecurity: unknown,
  securitySchemes: unknown,
): SecurityRequirements {
  const effective = operationSecurity !== undefined ? operationSecurity : rootSecurity;
  if (!Array.isArray(effective) || effective.length === 0) return { alternatives: [], anonymousAccess: false };
  const schemes = recordOr(securitySchemes);
  const alternatives: string[][] = [];
  let anonymous = false;
  let bearerUsable = false;
  for (const requirement of effective) {
    if (!isRecord(requirement)) continue;
    const entries = Object.entries(requirement);
    if (entries.length === 0) anonymous = true;
    if (entries.length === 0 || !entries.every(([scheme]) => presentsBearerToken(schemes[scheme]))) continue;
    bearerUsable = true;
    const scopes = entries.flatMap(([scheme, listed]) =>
      hasScopes(schemes[scheme]) ? arrayOr(listed).filter((scope): scope is string => typeof scope === 'string') : [],
    );
    alternatives.push([...new Set(scopes)]);
  }
  const scoped = dedupeAlternatives(alternatives.filter((alternative) => alternative.length > 0));
  // Anonymous access with nothing to gain from a token is simply public.
  if (anonymous)
    return scoped.length === 0
      ? { alternatives: [], anonymousAccess: false }
      : { alternatives: scoped, anonymousAccess: true };
  if (!bearerUsable) return { alternatives: [[]], anonymousAccess: false };
  return { alternatives: dedupeAlternatives(alternatives), anonymousAccess: false };
}

/** Shorthand for `securityRequirements(...).alternatives`. */
export function scopeAlternatives(
  operationSecurity: unknown,
  rootSecurity: unknown,
  securitySchemes: unknown,
): ScopeAlternatives {
  return securityRequirements(operationSecurity, rootSecurity, securitySchemes).alternatives;
}

/**
 * `courses:write` → `courses`, `write:org` → `org`, `courses.read` → `courses`, `openid` → `openid`.
 * URL-form scopes are read from their last path segment, without the product name that leads a
 * dotted one: `https://www.googleapis.com/auth/classroom.courses.readonly` → `courses`,
 * `https://purl.imsglobal.org/spec/or/v1p2/scope/roster-core.readonly` → `roster_core`.
 */
export function scopeGroup(scope: string): string {
  const urlForm = /^[a-z][a-z0-9+.-]*:\/\//i.test(scope);
  const tail = urlForm
    ? (scope
        .replace(/[?#].*$/, '')
        .split('/')
        .filter((segment) => segment !== '')
        .pop() ?? '')
    : scope;
  const parts = tail.split(/[:.]/).filter((part) => part !== '');
  const subjects = parts.filter((part) => !SCOPE_ACTIONS.has(part.toLowerCase()));
  if (urlForm) return toolsetName((subjects.length > 1 ? subjects[1] : subjects[0]) ?? tail);
  if (parts.length === 2) return toolsetName(subjects[0] ?? parts[0] ?? '');
  return toolsetName(scope);
}

/** A toolset name that is safe on a command line: `Course Players` → `course_players`. */
export function toolsetName(text: string): string {
  return snakeCase(text).slice(0, 40).replace(/_+$/, '');
}

/**
 * Words for each scope, from every oauth2 flow's `scopes` map (first description wins). They are
 * shown in consent texts (the URL elicitation message, tool results), so they get the same
 * plain-text cleaning as operation descriptions, a cap, and only real scope-tokens are described.
 * @see SECURITY.md API-13
 */
export function scopeDescriptions(securitySchemes: unknown): Record<string, string> {
  const descriptions: Record<string, string> = {};
  for (const [, scheme] of entriesOf(securitySchemes)) {
    for (const [, flow] of entriesOf(recordOr(scheme)['flows'])) {
      for (const [scope, words] of entriesOf(recordOr(flow)['scopes'])) {
        if (typeof words !== 'string' || Object.hasOwn(descriptions, scope) || !isQuotableScope(scope)) continue;
        const shown = plainText(words, MAX_SCOPE_DESCRIPTION_LENGTH);
        if (shown !== '') descriptions[scope] = shown;
      }
    }
  }
  return descriptions;
}

function presentsBearerToken(scheme: unknown): boolean {
  // A requirement naming a scheme the document does not define is taken at its word: it needs sign-in.
  if (!isRecord(scheme)) return true;
  const type = (stringOr(scheme['type']) ?? '').toLowerCase();
  if (BEARER_SCHEME_TYPES.has(type)) return true;
  return type === 'http' && (stringOr(scheme['scheme']) ?? '').toLowerCase() === 'bearer';
}

function hasScopes(scheme: unknown): boolean {
  return isRecord(scheme) && BEARER_SCHEME_TYPES.has((stringOr(scheme['type']) ?? '').toLowerCase());
}

function dedupeAlternatives(alternatives: readonly string[][]): string[][] {
  const seen = new Set<string>();
  return alternatives.filter((alternative) => {
    const key = [...alternative].sort().join(' ');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
