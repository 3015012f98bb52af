import { describe, expect, it } from 'vitest';
import { commandUsage, SCHOOL_MCP_COMMAND_LINE } from '../../src/command-line/index.js';
import { loadConfig } from '../../src/config/index.js';

describe('--audit-log', () => {
  it('HOST-58 goes with --hosted only: a stdio or --http server refuses the flag and ignores the variable', () => {
    expect(
      loadConfig(['--hosted', '--demo', '--audit-log', '/var/log/school-mcp/audit.jsonl'], {}).hosted?.auditLog,
    ).toBe('/var/log/school-mcp/audit.jsonl');
    expect(loadConfig(['--hosted', '--demo'], { SCHOOL_MCP_AUDIT_LOG: '-' }).hosted?.auditLog).toBe('-');
    expect(loadConfig(['--hosted', '--demo', '--audit-log', '-'], {}).hosted?.auditLog).toBe('-');
    expect(loadConfig(['--hosted', '--demo', '--audit-log', 'a'], { SCHOOL_MCP_AUDIT_LOG: 'b' }).hosted?.auditLog).toBe(
      'a',
    );
    expect(loadConfig(['--hosted', '--demo'], {}).hosted?.auditLog).toBeUndefined();
    expect(() => loadConfig(['--demo', '--audit-log', '-'], {})).toThrow(/go with --hosted/);
    expect(() => loadConfig(['--hosted', '--demo', '--audit-log', ''], {})).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
    expect(loadConfig(['--demo'], { SCHOOL_MCP_AUDIT_LOG: '-' }).hosted).toBeUndefined();
  });

  it('is in the usage text with its environment variable', () => {
    expect(commandUsage(SCHOOL_MCP_COMMAND_LINE, 'serve')).toMatch(/--audit-log FILE\|-[\s\S]*SCHOOL_MCP_AUDIT_LOG/);
  });
});
