/**
 * What hosted mode's audit log records: who (the person's subject at the school, the MCP client)
 * did what through school-mcp, and how it ended. An event names no token, code, secret, argument
 * or result: its type has no place for one, and the line builder writes only the fields below.
 * @see docs/audit-log.md, SECURITY.md LOG-03
 */

/** Each event with the outcomes it can have. */
interface AuditOutcomes {
  /** An MCP client registered (RFC 7591), or its registration was refused. */
  readonly registration: 'ok' | 'refused';
  /** school-mcp's own consent page: the person allowed or denied the client, or the form was refused. */
  readonly consent: 'allowed' | 'denied' | 'refused';
  /** The sign-in at the school finished: the client got its grant, the person did not sign in, or the school's answer was refused. */
  readonly sign_in: 'ok' | 'denied' | 'refused';
  /** More permission at the school: a link was made, the school granted it, or it did not. */
  readonly step_up: 'asked' | 'granted' | 'refused';
  /** One tool call as the person. */
  readonly tool_call: 'ok' | 'error';
  /** The person signed out through the `sign_out` tool. */
  readonly sign_out: 'ok';
  /** A grant of school-mcp's ended by the authorization server: a reused refresh token or code, or a revocation request. */
  readonly grant_revoked: 'ok';
  /** A request to `/mcp` refused before any tool ran. */
  readonly access: 'refused';
  /** Lines the log could not write (its queue was full, or the disk failed): `dropped` says how many. */
  readonly audit_gap: 'ok';
}

type AuditEventName = keyof AuditOutcomes;

interface AuditFields {
  /** The person's subject at the school. */
  readonly sub?: string | undefined;
  /** The MCP client's id at school-mcp (an id it registered, or a metadata document's URL). */
  readonly clientId?: string | undefined;
  /** The name a client gave itself at registration: its own words, kept as one short line. */
  readonly clientName?: string | undefined;
  readonly tool?: string | undefined;
  /** The class of the school API's HTTP status, e.g. `2xx`, when a tool call reached it. */
  readonly statusClass?: string | undefined;
  /** A stable error code: school-mcp's (`API_TIMEOUT`) or OAuth's (`invalid_redirect_uri`). */
  readonly error?: string | undefined;
  /** school-mcp's own short words for a refusal or a revocation. */
  readonly reason?: string | undefined;
  /** Scopes at the school, for a step-up. */
  readonly scopes?: readonly string[] | undefined;
  /** `sign_out`: whether the school confirmed the revocation of the person's school grant. */
  readonly schoolRevoked?: boolean | undefined;
  /** `audit_gap`: how many lines are missing before this one. */
  readonly dropped?: number | undefined;
}

export type AuditEvent = {
  readonly [E in AuditEventName]: { readonly event: E; readonly outcome: AuditOutcomes[E] } & AuditFields;
}[AuditEventName];

/** Where events go. `record` never throws and never waits: a slow or failing log does not hold a request. */
export interface AuditLog {
  record(event: AuditEvent): void;
}

/** The default: hosted mode without `--audit-log`, and every part used outside hosted mode. */
export const NO_AUDIT_LOG: AuditLog = { record: () => undefined };
