import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';

describe('school-mcp store … arguments', () => {
  it('ST-14 reads the store and key file as --hosted does, the key and the Redis password only from the environment, and needs no school', () => {
    const config = loadConfig(
      [
        'store',
        'reseal',
        '--store',
        'redis://redis.internal:6379/0',
        '--store-key-file',
        '/srv/key',
        '--log-level',
        'warn',
      ],
      {
        SCHOOL_MCP_STORE_KEY: 'k',
        SCHOOL_MCP_REDIS_PASSWORD: 'p',
      },
    );
    expect(config).toMatchObject({
      command: 'store-reseal',
      logLevel: 'warn',
      json: false,
      store: { storeDir: 'redis://redis.internal:6379/0', storeKeyFile: '/srv/key', storeKey: 'k', redisPassword: 'p' },
    });
    expect(
      loadConfig(['store', 'keys', '--json'], { SCHOOL_MCP_STORE: '/srv/store', SCHOOL_MCP_CONFIG_DIR: '/srv/config' }),
    ).toMatchObject({
      command: 'store-keys',
      json: true,
      configDir: '/srv/config',
      store: { storeDir: '/srv/store', storeKeyFile: undefined, storeKey: undefined },
    });
  });

  it('refuses what serving takes but a store command does not', () => {
    expect(() => loadConfig(['store', 'keys', '--hosted'], {})).toThrow(/--hosted goes with serving only/);
    expect(() => loadConfig(['store', 'reset-secrets', '--json'], {})).toThrow(/--json goes with/);
    expect(() => loadConfig(['store', 'keys', '--log-level', 'loud'], {})).toThrow(/unknown --log-level loud/);
  });
});
