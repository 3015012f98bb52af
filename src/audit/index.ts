/**
 * Hosted mode's audit log: who did what through school-mcp, one JSON line per event, in a
 * versioned schema (docs/audit-log.md), to stderr or an append-only file.
 */
export { NO_AUDIT_LOG, type AuditEvent, type AuditLog } from './audit-event.js';
export { FIELD_ORDER, statusClassOf } from './audit-line.js';
export { openAuditTarget, type AuditTarget } from './audit-target.js';
