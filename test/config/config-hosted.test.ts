import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';

const hosted = (args: string[], env: Record<string, string> = {}) => loadConfig(['--hosted', ...args], env).hosted;

describe('school-mcp --hosted arguments', () => {
  it('HOST-23 takes --allowed-host and --allowed-origin for a proxy in front of the hosted server', () => {
    expect(
      hosted([
        '--public-url',
        'https://mcp.school.example',
        '--school',
        'https://school.example',
        '--client-id',
        'sbxi_1',
        '--allowed-host',
        'mcp-internal:8080',
        '--allowed-origin',
        'https://chat.example',
      ]),
    ).toMatchObject({ allowedHosts: ['mcp-internal:8080'], allowedOrigins: ['https://chat.example'] });
  });

  it('reads the public URL, store, key file, host and port; the key only from the environment', () => {
    expect(
      hosted(
        [
          '--public-url',
          'https://mcp.school.example',
          '--school',
          'https://school.example',
          '--client-id',
          'sbxi_1',
          '--store',
          '/srv/store',
          '--store-key-file',
          '/srv/key',
          '--host',
          '0.0.0.0',
          '--port',
          '8080',
        ],
        {
          SCHOOL_MCP_STORE_KEY: 'k',
        },
      ),
    ).toEqual({
      publicUrl: 'https://mcp.school.example',
      storeDir: '/srv/store',
      storeKeyFile: '/srv/key',
      storeKey: 'k',
      host: '0.0.0.0',
      port: 8080,
      allowedHosts: [],
      allowedOrigins: [],
      drainSeconds: 10,
      trustProxy: false,
      registration: {},
    });
    expect(
      hosted(['--school', 'https://school.example'], {
        SCHOOL_MCP_PUBLIC_URL: 'https://mcp.school.example',
        SCHOOL_MCP_CLIENT_ID: 'sbxi_1',
        SCHOOL_MCP_STORE: '/s',
      }),
    ).toMatchObject({
      publicUrl: 'https://mcp.school.example',
      storeDir: '/s',
      host: '127.0.0.1',
      port: 0,
    });
  });

  it('takes --drain-seconds or SCHOOL_MCP_DRAIN_SECONDS, 10 by default, 0 to stop at once, and refuses anything else', () => {
    expect(hosted(['--demo'])?.drainSeconds).toBe(10);
    expect(hosted(['--demo', '--drain-seconds', '0'])?.drainSeconds).toBe(0);
    expect(hosted(['--demo', '--drain-seconds', '2.5'])?.drainSeconds).toBe(2.5);
    expect(hosted(['--demo'], { SCHOOL_MCP_DRAIN_SECONDS: '30' })?.drainSeconds).toBe(30);
    expect(hosted(['--demo', '--drain-seconds', '5'], { SCHOOL_MCP_DRAIN_SECONDS: '30' })?.drainSeconds).toBe(5);
    for (const wrong of ['-1', 'soon', '601'])
      expect(() => hosted(['--demo', '--drain-seconds', wrong])).toThrow(
        expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringMatching(/--drain-seconds/) }),
      );
    expect(() => loadConfig(['--demo', '--drain-seconds', '5'], {})).toThrow(/go with --hosted/);
  });

  it('HOST-41 trusts X-Forwarded-For only with --trust-proxy or SCHOOL_MCP_TRUST_PROXY, and only with --hosted', () => {
    expect(hosted(['--demo'])?.trustProxy).toBe(false);
    expect(hosted(['--demo', '--trust-proxy'])?.trustProxy).toBe(true);
    expect(hosted(['--demo'], { SCHOOL_MCP_TRUST_PROXY: '1' })?.trustProxy).toBe(true);
    expect(hosted(['--demo'], { SCHOOL_MCP_TRUST_PROXY: 'no' })?.trustProxy).toBe(false);
    expect(() => loadConfig(['--demo', '--trust-proxy'], {})).toThrow(/go with --hosted/);
  });

  it('needs nothing but --demo for the demo', () => {
    expect(hosted(['--demo'])).toMatchObject({ publicUrl: undefined, host: '127.0.0.1', port: 0 });
  });

  it.each([
    ['no public URL', ['--school', 'https://school.example', '--client-id', 'x'], /--public-url/],
    [
      'no client id',
      ['--school', 'https://school.example', '--public-url', 'https://mcp.school.example'],
      /--client-id/,
    ],
    ['--http as well', ['--demo', '--http'], /exclude each other/],
  ])('refuses %s as a usage error', (_label, args, message) => {
    expect(() => hosted(args)).toThrow(message);
    expect(() => hosted(args)).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });

  it('refuses the hosted flags without --hosted', () => {
    expect(() => loadConfig(['--demo', '--public-url', 'https://mcp.school.example'], {})).toThrow(/go with --hosted/);
  });
});
