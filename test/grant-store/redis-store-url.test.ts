import { describe, expect, it } from 'vitest';
import { parseStoreLocation } from '../../src/grant-store/index.js';
import { isRedisStoreUrl } from '../../src/grant-store/redis-store-url.js';
import { recordFileName } from '../../src/grant-store/record-file-name.js';
import { redisRecordKey } from '../../src/grant-store/redis-keys.js';

describe('what --store names', () => {
  it('takes a path as a directory and a redis:// or rediss:// URL as a Redis server, database 0 by default', () => {
    expect(parseStoreLocation('/var/lib/school-mcp/store')).toEqual({
      ok: true,
      location: { kind: 'directory', dir: '/var/lib/school-mcp/store' },
    });
    expect(parseStoreLocation('redis://cache.internal:6380/3')).toEqual({
      ok: true,
      location: { kind: 'redis', address: { url: 'redis://cache.internal:6380/3', tls: false, database: 3 } },
    });
    expect(parseStoreLocation('rediss://cache.internal')).toEqual({
      ok: true,
      location: { kind: 'redis', address: { url: 'rediss://cache.internal:6379/0', tls: true, database: 0 } },
    });
    expect(isRedisStoreUrl('REDIS://x')).toBe(true);
    expect(isRedisStoreUrl('./redis-store')).toBe(false);
  });

  it('HST-06 refuses a Redis URL that carries a user or password, which the command line would show to every local user', () => {
    for (const url of ['redis://:secret@cache:6379/0', 'rediss://default:secret@cache/0', 'redis://someone@cache/0']) {
      const parsed = parseStoreLocation(url);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(parsed.reason).toMatch(/SCHOOL_MCP_REDIS_PASSWORD/);
        expect(parsed.reason).not.toContain('secret');
      }
    }
  });

  it('refuses a database that is not a number from 0 to 15, a query and a missing host', () => {
    for (const url of ['redis://cache/16', 'redis://cache/db', 'redis://cache/0?tls=1', 'redis:///0', 'redis://[bad']) {
      expect(parseStoreLocation(url).ok, url).toBe(false);
    }
  });

  it("HST-07 names a record by the hash of its name under school-mcp:, and seals it to the directory store's address", () => {
    const { key, address } = redisRecordKey('school-grant', 'usr_owner_ada');
    expect(key).toBe(`school-mcp:school-grant:${recordFileName('usr_owner_ada').replace(/\.rec$/, '')}`);
    expect(key).not.toContain('usr_owner_ada');
    expect(address).toEqual({ namespace: 'school-grant', name: recordFileName('usr_owner_ada') });
    expect(() => redisRecordKey('School Grant', 'x')).toThrow(RangeError);
    expect(() => redisRecordKey('client', '')).toThrow(RangeError);
  });
});
