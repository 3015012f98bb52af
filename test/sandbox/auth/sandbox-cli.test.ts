import { describe, expect, it } from 'vitest';
import { describeSandbox, parseSandboxArgs } from '../../../src/sandbox/cli.js';
import { runSandboxCommand } from '../../../src/sandbox/index.js';

describe('school-mcp sandbox arguments', () => {
  it('reads port, auto-approve and data file', () => {
    expect(parseSandboxArgs(['--port', '8080', '--auto-approve', '--data=school.json'])).toEqual({
      kind: 'run',
      options: { port: 8080, autoApprove: true, dataFile: 'school.json' },
    });
    expect(parseSandboxArgs([])).toEqual({ kind: 'run', options: {} });
  });

  it.each([['--port'], ['--port', 'http'], ['--port', '70000'], ['--data'], ['--verbose']])('refuses %j', (...args) => {
    expect(parseSandboxArgs(args).kind).toBe('invalid');
  });

  it('prints the issuer, metadata, openapi.json and auth.md URLs', () => {
    const text = describeSandbox('http://127.0.0.1:4000', { autoApprove: true });
    for (const url of [
      'http://127.0.0.1:4000/.well-known/oauth-authorization-server',
      'http://127.0.0.1:4000/openapi.json',
      'http://127.0.0.1:4000/auth.md',
    ]) {
      expect(text).toContain(url);
    }
  });

  it('rejects an unknown flag before starting anything', async () => {
    await expect(runSandboxCommand(['--bogus'])).rejects.toThrow(/unknown argument --bogus/);
  });
});
