/**
 * The token store's file format, one JSON file per issuer. Pure parse and serialise: a file that
 * is not exactly this shape is treated as corrupt (ST-04), never half-trusted.
 */
import { normalizeScopes } from './scopes.js';
import type { TokenSet } from './token-set.js';

const STORE_VERSION = 1;

type ClientKind = 'dynamic' | 'static' | 'metadata-document';

export interface StoredClient {
  kind: ClientKind;
  clientId: string;
  clientSecret?: string;
  redirectUris: string[];
  registeredAt: number;
}

export interface PendingRevocation {
  token: string;
  hint: 'refresh_token' | 'access_token';
  clientId: string;
}

export interface StoreRecord {
  version: typeof STORE_VERSION;
  issuer: string;
  client?: StoredClient;
  tokens?: TokenSet;
  /** Tokens whose revocation was not confirmed (RV-03); never used for API calls. */
  pendingRevocation?: PendingRevocation[];
  /** How the last consent flow ended when it did not succeed, so a waiting process can tell. */
  lastConsentFailure?: { code: string; at: number };
}

export function emptyRecord(issuer: string): StoreRecord {
  return { version: STORE_VERSION, issuer };
}

export type ParsedRecord = { ok: true; record: StoreRecord } | { ok: false; reason: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

export function parseStoreRecord(text: string, issuer: string): ParsedRecord {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (!isObject(raw)) return { ok: false, reason: 'not a JSON object' };
  if (raw.version !== STORE_VERSION) return { ok: false, reason: 'unknown version' };
  // MD-06: a file holding another issuer's credentials is never used for this one.
  if (raw.issuer !== issuer) return { ok: false, reason: 'belongs to another issuer' };
  const record: StoreRecord = emptyRecord(issuer);
  if (raw.client !== undefined) {
    const client = parseClient(raw.client);
    if (!client) return { ok: false, reason: 'malformed client' };
    record.client = client;
  }
  if (raw.tokens !== undefined) {
    const tokens = parseTokens(raw.tokens);
    if (!tokens) return { ok: false, reason: 'malformed tokens' };
    record.tokens = tokens;
  }
  if (raw.pendingRevocation !== undefined) {
    if (!Array.isArray(raw.pendingRevocation)) return { ok: false, reason: 'malformed pending revocations' };
    const pending: PendingRevocation[] = [];
    for (const item of raw.pendingRevocation) {
      if (!isObject(item) || !isString(item.token) || !isString(item.clientId))
        return { ok: false, reason: 'malformed pending revocations' };
      if (item.hint !== 'refresh_token' && item.hint !== 'access_token')
        return { ok: false, reason: 'malformed pending revocations' };
      pending.push({ token: item.token, hint: item.hint, clientId: item.clientId });
    }
    record.pendingRevocation = pending;
  }
  const failure = raw.lastConsentFailure;
  if (isObject(failure) && isString(failure.code) && isTime(failure.at))
    record.lastConsentFailure = { code: failure.code, at: failure.at };
  return { ok: true, record };
}

function parseClient(raw: unknown): StoredClient | undefined {
  if (!isObject(raw) || !isString(raw.clientId) || !isStringArray(raw.redirectUris) || !isTime(raw.registeredAt))
    return undefined;
  if (raw.kind !== 'dynamic' && raw.kind !== 'static' && raw.kind !== 'metadata-document') return undefined;
  if (raw.clientSecret !== undefined && !isString(raw.clientSecret)) return undefined;
  return {
    kind: raw.kind,
    clientId: raw.clientId,
    ...(raw.clientSecret ? { clientSecret: raw.clientSecret } : {}),
    redirectUris: [...raw.redirectUris],
    registeredAt: raw.registeredAt,
  };
}

function parseTokens(raw: unknown): TokenSet | undefined {
  if (!isObject(raw) || !isString(raw.accessToken) || !isString(raw.resource) || !isString(raw.clientId))
    return undefined;
  if (!isStringArray(raw.scopes) || !isTime(raw.obtainedAt)) return undefined;
  if (raw.refreshToken !== undefined && !isString(raw.refreshToken)) return undefined;
  if (raw.expiresAt !== undefined && !isTime(raw.expiresAt)) return undefined;
  return {
    accessToken: raw.accessToken,
    ...(raw.refreshToken ? { refreshToken: raw.refreshToken } : {}),
    ...(raw.expiresAt !== undefined ? { expiresAt: raw.expiresAt } : {}),
    scopes: normalizeScopes(raw.scopes),
    resource: raw.resource,
    clientId: raw.clientId,
    obtainedAt: raw.obtainedAt,
  };
}

export function serializeStoreRecord(record: StoreRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}
