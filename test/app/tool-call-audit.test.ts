import { describe, expect, it } from 'vitest';
import { toolCallEvent } from '../../src/app/tool-call-audit.js';
import { SchoolMcpError } from '../../src/errors.js';
import type { ExecutionOutcome } from '../../src/executor/index.js';

const caller = { sub: 'usr_ada', clientId: 'client-1' };
const call = { toolName: 'create_member', method: 'POST', pathTemplate: '/members' };
const response = (status: number): ExecutionOutcome => ({
  kind: 'response',
  call,
  status,
  contentType: 'application/json',
  content: { kind: 'json', value: { email: 'ARG-CANARY@example.com' } },
  byteLength: 10,
  truncated: false,
});
const ok = { content: [{ type: 'text' as const, text: 'RESULT-CANARY' }] };
const failed = { ...ok, isError: true };

describe('a hosted tool call as an audit event', () => {
  it('HOST-55 says how the call ended, by status class or stable code, and never what it carried or returned', () => {
    expect(toolCallEvent('create_member', caller, { kind: 'answered', outcome: response(201), result: ok })).toEqual({
      event: 'tool_call',
      outcome: 'ok',
      tool: 'create_member',
      sub: 'usr_ada',
      clientId: 'client-1',
      statusClass: '2xx',
    });
    expect(
      toolCallEvent('create_member', caller, { kind: 'answered', outcome: response(409), result: failed }),
    ).toMatchObject({ outcome: 'error', statusClass: '4xx' });
    const timeout: ExecutionOutcome = {
      kind: 'error',
      call,
      error: new SchoolMcpError('API_TIMEOUT', 'the school did not answer'),
    };
    expect(
      toolCallEvent('create_member', caller, { kind: 'answered', outcome: timeout, result: failed }),
    ).toMatchObject({ outcome: 'error', error: 'API_TIMEOUT' });
    expect(
      toolCallEvent('create_member', caller, { kind: 'answered', outcome: undefined, result: failed }),
    ).toMatchObject({ outcome: 'error' });
    expect(
      toolCallEvent('create_member', caller, { kind: 'thrown', error: new SchoolMcpError('STORE_UNAVAILABLE', 'x') }),
    ).toMatchObject({ outcome: 'error', error: 'STORE_UNAVAILABLE' });
    const events = [response(200), response(500)].map((outcome) =>
      toolCallEvent('create_member', caller, { kind: 'answered', outcome, result: ok }),
    );
    expect(JSON.stringify(events)).not.toMatch(/CANARY/);
  });
});
