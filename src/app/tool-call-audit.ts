/**
 * A hosted tool call as an audit event: the tool, the person and the client, and how it ended
 * (the school API's status class, or the stable code of the failure). Never its arguments or its
 * result. Pure.
 * @see docs/audit-log.md, SECURITY.md HOST-55
 */
import { statusClassOf, type AuditEvent } from '../audit/index.js';
import type { ExecutionOutcome } from '../executor/index.js';
import type { OperationResult } from '../server/index.js';

/** Who a hosted runtime calls for. */
export interface ToolCaller {
  readonly sub: string;
  readonly clientId: string;
}

export type ToolCallEnd =
  /** `outcome`: the last request's, if the call reached the executor; `result`: what the client got. */
  | { readonly kind: 'answered'; readonly outcome: ExecutionOutcome | undefined; readonly result: OperationResult }
  | { readonly kind: 'thrown'; readonly error: unknown };

export function toolCallEvent(tool: string, caller: ToolCaller | undefined, end: ToolCallEnd): AuditEvent {
  const base = { event: 'tool_call', tool, sub: caller?.sub, clientId: caller?.clientId } as const;
  if (end.kind === 'thrown') return { ...base, outcome: 'error', error: codeOf(end.error) };
  const { outcome, result } = end;
  const failed = (result as { isError?: unknown }).isError === true;
  switch (outcome?.kind) {
    case undefined:
      return { ...base, outcome: failed ? 'error' : 'ok' };
    case 'response':
      return {
        ...base,
        outcome: failed || outcome.status >= 400 ? 'error' : 'ok',
        statusClass: statusClassOf(outcome.status),
      };
    case 'insufficient_scope':
      return {
        ...base,
        outcome: 'error',
        error: 'insufficient_scope',
        statusClass: statusClassOf(outcome.response.status),
      };
    case 'error':
      return { ...base, outcome: 'error', error: outcome.error.code };
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
