import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { describeIntegration, describeSandbox } from '../../../packages/sandbox/src/cli.js';

describe('school-mcp sandbox arguments', () => {
  // The sandbox's arguments are read by school-mcp's one command table (src/command-line).
  const sandboxOptions = (args: string[]) => loadConfig(['sandbox', ...args], {}).sandbox;

  it('reads port, auto-approve and data file', () => {
    expect(sandboxOptions(['--port', '8080', '--auto-approve', '--data=school.json'])).toEqual({
      port: 8080,
      autoApprove: true,
      dataFile: 'school.json',
    });
    expect(sandboxOptions([])).toEqual({});
  });

  it('reads the callbacks of one registered integration, in order', () => {
    expect(
      sandboxOptions([
        '--integration',
        'https://mcp.school.example/oauth/callback',
        '--integration=http://127.0.0.1:8080/oauth/callback',
      ]),
    ).toEqual({
      integrationCallbacks: ['https://mcp.school.example/oauth/callback', 'http://127.0.0.1:8080/oauth/callback'],
    });
    expect(() => sandboxOptions(['--integration', 'not a url'])).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
  });

  it("prints an integration's callbacks, client id and secret", () => {
    const text = describeIntegration(['https://mcp.school.example/oauth/callback'], {
      clientId: 'sbxi_1',
      clientSecret: 'sbxs_2',
    });
    expect(text).toContain('https://mcp.school.example/oauth/callback');
    expect(text).toMatch(/client id: +sbxi_1/);
    expect(text).toMatch(/client secret: +sbxs_2/);
  });

  it.each([['--port'], ['--port', 'http'], ['--port', '70000'], ['--data'], ['--verbose']])(
    'refuses %j as a usage error',
    (...args) => {
      expect(() => sandboxOptions(args)).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
    },
  );

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

  it('rejects an unknown flag before starting anything, pointing at its own help', () => {
    expect(() => sandboxOptions(['--bogus'])).toThrow(/Unknown option --bogus for school-mcp sandbox/);
    expect(() => sandboxOptions(['--bogus'])).toThrow(
      expect.objectContaining({ hint: 'run `school-mcp sandbox --help` for the options' }),
    );
  });
});
