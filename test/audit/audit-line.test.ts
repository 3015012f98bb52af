import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit/index.js';
import { AUDIT_SCHEMA_VERSION, FIELD_ORDER, auditLine, statusClassOf } from '../../src/audit/audit-line.js';

const AT = new Date(Date.UTC(2026, 10, 28, 9, 30, 1, 234));

describe('the audit line', () => {
  it('LOG-03 writes the fields in the documented order, whatever order the event gives them in', () => {
    const event = {
      scopes: ['members:write'],
      tool: 'create_member',
      clientId: 'client-1',
      sub: 'usr_ada',
      outcome: 'asked',
      event: 'step_up',
    } as AuditEvent;
    const line = auditLine(event, AT);
    expect(line).toBe(
      `{"v":${AUDIT_SCHEMA_VERSION},"time":"2026-11-28T09:30:01.234Z","event":"step_up","outcome":"asked","sub":"usr_ada","client_id":"client-1","tool":"create_member","scopes":["members:write"]}`,
    );
    const every = auditLine(
      {
        event: 'sign_out',
        outcome: 'ok',
        sub: 's',
        clientId: 'c',
        clientName: 'n',
        tool: 't',
        statusClass: '2xx',
        error: 'E',
        reason: 'r',
        scopes: ['a'],
        schoolRevoked: true,
        dropped: 3,
      } as unknown as AuditEvent,
      AT,
    );
    expect(Object.keys(JSON.parse(every) as object)).toEqual([...FIELD_ORDER]);
  });

  it('LOG-03 writes the time in ISO 8601 UTC with milliseconds, whatever the time zone of the process', () => {
    const parsed = JSON.parse(auditLine({ event: 'access', outcome: 'refused', error: 'invalid_token' }, AT)) as {
      time: string;
    };
    expect(parsed.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(new Date(parsed.time).getTime()).toBe(AT.getTime());
  });

  it('LOG-03 never writes a field it does not know: tokens, codes, secrets and arguments slipped into an event are left out', () => {
    const smuggled = {
      event: 'tool_call',
      outcome: 'ok',
      tool: 'create_member',
      sub: 'usr_ada',
      access_token: 'AT-CANARY-123456',
      refreshToken: 'RT-CANARY-123456',
      code: 'CODE-CANARY-123456',
      client_secret: 'SECRET-CANARY-123456',
      arguments: { email: 'ARG-CANARY@example.com' },
      result: 'RESULT-CANARY',
    } as unknown as AuditEvent;
    const line = auditLine(smuggled, AT);
    expect(line).not.toMatch(/CANARY/);
    expect(Object.keys(JSON.parse(line) as object)).toEqual(['v', 'time', 'event', 'outcome', 'sub', 'tool']);
  });

  it('LOG-03 keeps text it did not write to one short showable line: no line break, terminal escape, bidi override or flood', () => {
    const hostile = 'usr_ada\n{"v":1,"event":"sign_in","outcome":"ok"}\u001b[2J\u2028\u202e' + 'x'.repeat(100_000);
    const line = auditLine({ event: 'registration', outcome: 'ok', clientId: hostile, clientName: hostile }, AT);
    expect(line).not.toMatch(/[\n\r\u001b\u2028\u2029\u202e]/);
    expect(line.length).toBeLessThan(600);
    const parsed = JSON.parse(line) as { client_id: string; client_name: string };
    expect(parsed.client_id.startsWith('usr_ada {"v":1')).toBe(true);
    expect(parsed.client_name.length).toBeLessThanOrEqual(100);
  });

  it('LOG-03 quotes codes, scopes, status classes and tool names only when they are what they claim to be', () => {
    const parsed = JSON.parse(
      auditLine(
        {
          event: 'tool_call',
          outcome: 'error',
          tool: 'x\ny',
          error: 'bad\ncode',
          statusClass: '200 OK',
          scopes: ['members:write', 'a b', 'c"d'],
        } as AuditEvent,
        AT,
      ),
    ) as Record<string, unknown>;
    expect(parsed).toMatchObject({ tool: 'malformed tool name', error: 'malformed error', scopes: ['members:write'] });
    expect(parsed).not.toHaveProperty('status_class');
  });

  it('names the class of an HTTP status', () => {
    expect([200, 201, 302, 404, 503].map(statusClassOf)).toEqual(['2xx', '2xx', '3xx', '4xx', '5xx']);
  });
});
