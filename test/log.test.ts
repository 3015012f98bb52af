import { describe, expect, it } from 'vitest';
import { createLogger, formatLine } from '../src/log.js';

describe('the logger', () => {
  it('LOG-01 redacts secret fields by name and registered secrets wherever they appear', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', write: (line) => lines.push(line) });
    logger.redact('AT-CANARY-0123456789');
    logger.child('oauth').info('refreshed AT-CANARY-0123456789', { access_token: 'anything', authorization: 'Bearer x', note: 'see AT-CANARY-0123456789' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('AT-CANARY');
    expect(lines[0]).not.toContain('anything');
    expect(lines[0]).toContain('school-mcp:oauth [info]');
    expect(lines[0]).toContain('access_token=[redacted]');
  });

  it('LOG-02 neutralises attacker text: CR/LF, ANSI escapes and huge values stay on one short line', () => {
    const hostile = 'denied\n[info] approved\r\u001b[2J' + 'x'.repeat(1024 * 1024);
    const line = formatLine(new Set(), 'school-mcp', 'warn', 'authorization failed', { error_description: hostile });
    expect(line).not.toMatch(/[\n\r\u001b]/);
    expect(line).toContain('\\n[info] approved');
    expect(line.length).toBeLessThan(1200);
    expect(line).toContain('chars)');
  });

  it('drops lines below the chosen level', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', write: (line) => lines.push(line) });
    logger.info('quiet');
    logger.error('loud');
    expect(lines).toEqual(['school-mcp [error] loud']);
  });
});
