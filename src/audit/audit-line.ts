/**
 * The one place an audit event becomes a line: JSON on one line, its fields always in the order
 * of `FIELD_ORDER`, only those fields, the time in ISO 8601 UTC, and every text school-mcp did
 * not write itself (a subject the school sent, a client's id and name) cut to one showable line
 * by the school-text rule. Pure.
 * @see docs/audit-log.md, SECURITY.md LOG-03, LOG-04
 */
import { errorCodeText, freeText, quotableScopes } from '../school-text/index.js';
import type { AuditEvent } from './audit-event.js';

/** Raised when a field is added, renamed or changes meaning; docs/audit-log.md says what each version holds. */
export const AUDIT_SCHEMA_VERSION = 1;

/** Longest subject or client id kept; real ones are far shorter, a metadata document URL included. */
const MAX_ID_LENGTH = 256;
const MAX_NAME_LENGTH = 100;
const MAX_REASON_LENGTH = 200;
const STATUS_CLASS = /^[1-5]xx$/;
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** The keys of a line, in the order they are written. */
export const FIELD_ORDER = [
  'v',
  'time',
  'event',
  'outcome',
  'sub',
  'client_id',
  'client_name',
  'tool',
  'status_class',
  'error',
  'reason',
  'scopes',
  'school_revoked',
  'dropped',
] as const;

export function auditLine(event: AuditEvent, time: Date): string {
  const fields: Record<(typeof FIELD_ORDER)[number], unknown> = {
    v: AUDIT_SCHEMA_VERSION,
    time: time.toISOString(),
    event: event.event,
    outcome: event.outcome,
    sub: freeText(event.sub, MAX_ID_LENGTH),
    client_id: freeText(event.clientId, MAX_ID_LENGTH),
    client_name: freeText(event.clientName, MAX_NAME_LENGTH),
    tool:
      typeof event.tool === 'string' && TOOL_NAME.test(event.tool)
        ? event.tool
        : event.tool === undefined
          ? undefined
          : 'malformed tool name',
    status_class:
      typeof event.statusClass === 'string' && STATUS_CLASS.test(event.statusClass) ? event.statusClass : undefined,
    error: errorCodeText(event.error),
    reason: freeText(event.reason, MAX_REASON_LENGTH),
    scopes: event.scopes === undefined ? undefined : quotableScopes(event.scopes),
    school_revoked: typeof event.schoolRevoked === 'boolean' ? event.schoolRevoked : undefined,
    dropped: Number.isSafeInteger(event.dropped) ? event.dropped : undefined,
  };
  // JSON.stringify writes keys in insertion order and leaves out `undefined`.
  return JSON.stringify(Object.fromEntries(FIELD_ORDER.map((key) => [key, fields[key]])));
}

/** `2xx` … `5xx` for an HTTP status. */
export function statusClassOf(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}
