/**
 * The token store on a real file system: permissions, atomic replacement, symlinks, corrupt
 * files, per-issuer keying, and the cross-process lock.
 */
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { acquireLock, readLock, tryAcquireLock } from '../../src/oauth/file-lock.js';
import { parseStoreRecord, serializeStoreRecord, type StoreRecord } from '../../src/oauth/store-record.js';
import { createTokenStore, storeFileName } from '../../src/oauth/token-store.js';

const issuer = 'https://school.example';
let root: string;
let lines: string[];
const logger = () => createLogger({ write: (line) => lines.push(line) });
const record: StoreRecord = {
  version: 1,
  issuer,
  client: { kind: 'dynamic', clientId: 'c1', redirectUris: ['http://127.0.0.1:5000/callback'], registeredAt: 1 },
  tokens: {
    accessToken: 'AT-CANARY-1',
    refreshToken: 'RT-CANARY-1',
    expiresAt: 5000,
    scopes: ['openid'],
    resource: issuer,
    clientId: 'c1',
    obtainedAt: 1,
  },
};

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'school-mcp-store-'));
  lines = [];
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const mode = async (path: string) => (await lstat(path)).mode & 0o777;

describe('token store', () => {
  it('sees what another process wrote on the very next read, and hands out copies of what it kept', async () => {
    const dir = join(root, 'cfg');
    const ours = createTokenStore({ dir, issuer, logger: logger(), now: () => 1 });
    const theirs = createTokenStore({ dir, issuer, logger: logger(), now: () => 1 });
    await theirs.update(() => record);
    expect((await ours.read()).tokens?.accessToken).toBe('AT-CANARY-1');
    const kept = await ours.read();
    kept.tokens = undefined;
    expect((await ours.read()).tokens?.accessToken).toBe('AT-CANARY-1');
    await theirs.update((current) => ({ ...current, tokens: { ...current.tokens!, accessToken: 'AT-CANARY-2' } }));
    expect((await ours.read()).tokens?.accessToken).toBe('AT-CANARY-2');
    await theirs.update((current) => ({ version: current.version, issuer: current.issuer }));
    expect((await ours.read()).tokens).toBeUndefined();
  });

  it('ST-04 still sets aside a file corrupted in place after it was read', async () => {
    const dir = join(root, 'cfg');
    const store = createTokenStore({ dir, issuer, logger: logger(), now: () => 7 });
    await store.update(() => record);
    await store.read();
    await writeFile(join(dir, storeFileName(issuer)), '{"version":1,', { mode: 0o600 });
    expect((await store.read()).tokens).toBeUndefined();
    expect((await readdir(dir)).some((name) => name.includes('.corrupt-7'))).toBe(true);
  });

  it('ST-01 creates a 0700 directory and a 0600 file even under umask 000', async () => {
    const previous = process.umask(0);
    try {
      const store = createTokenStore({ dir: join(root, 'cfg'), issuer, logger: logger(), now: () => 1 });
      await store.update(() => record);
      expect(await mode(join(root, 'cfg'))).toBe(0o700);
      expect(await mode(store.path)).toBe(0o600);
      expect(await store.read()).toEqual(record);
    } finally {
      process.umask(previous);
    }
  });

  it('ST-01 tightens a pre-existing 0755 directory and 0644 file', async () => {
    const dir = join(root, 'cfg');
    await mkdir(dir, { mode: 0o755 });
    await chmod(dir, 0o755);
    const path = join(dir, storeFileName(issuer));
    await writeFile(path, serializeStoreRecord(record), { mode: 0o644 });
    await chmod(path, 0o644);
    const store = createTokenStore({ dir, issuer, logger: logger(), now: () => 1 });
    expect((await store.read()).tokens?.accessToken).toBe('AT-CANARY-1');
    expect(await mode(dir)).toBe(0o700);
    expect(await mode(path)).toBe(0o600);
    expect(lines.join('\n')).toMatch(/readable by others/);
  });

  it('ST-02 a failure before the rename leaves the old file intact and no temp file behind', async () => {
    let fail = false;
    const store = createTokenStore({
      dir: root,
      issuer,
      logger: logger(),
      now: () => 1,
      beforeCommit: () => {
        if (fail) throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
      },
    });
    await store.update(() => record);
    const before = await readFile(store.path, 'utf8');
    fail = true;
    await expect(store.update((current) => ({ ...current, tokens: undefined }))).rejects.toMatchObject({
      code: 'OAUTH_STORE_WRITE_FAILED',
    });
    expect(await readFile(store.path, 'utf8')).toBe(before);
    expect((await readdir(root)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('ST-02 two concurrent updates both land, never interleaved', async () => {
    const store = createTokenStore({ dir: root, issuer, logger: logger(), now: () => 1 });
    await Promise.all([
      store.update((current) => ({ ...current, client: record.client! })),
      store.update((current) => ({ ...current, lastConsentFailure: { code: 'OAUTH_ACCESS_DENIED', at: 2 } })),
    ]);
    const final = await store.read();
    expect(final.client?.clientId).toBe('c1');
    expect(final.lastConsentFailure?.code).toBe('OAUTH_ACCESS_DENIED');
  });

  it('ST-03 refuses a token file that is a symlink, for reading and writing', async () => {
    const outside = join(root, 'outside.json');
    await writeFile(outside, serializeStoreRecord(record));
    const dir = join(root, 'cfg');
    await mkdir(dir, { mode: 0o700 });
    await symlink(outside, join(dir, storeFileName(issuer)));
    const store = createTokenStore({ dir, issuer, logger: logger(), now: () => 1 });
    await expect(store.read()).rejects.toMatchObject({ code: 'OAUTH_STORE_UNSAFE' });
    await expect(store.update(() => record)).rejects.toMatchObject({ code: 'OAUTH_STORE_UNSAFE' });
    expect(JSON.parse(await readFile(outside, 'utf8'))).toEqual(record);
  });

  const corrupt = [
    ['empty', ''],
    ['brace', '{'],
    ['truncated', serializeStoreRecord(record).slice(0, 40)],
    ['null', 'null'],
    ['array', '[]'],
    ['wrong types', JSON.stringify({ ...record, tokens: { ...record.tokens, accessToken: 1 } })],
    ['unknown version', JSON.stringify({ ...record, version: 99 })],
    [
      'proto keys',
      '{"__proto__":{"polluted":true},"version":1,"issuer":"https://school.example","tokens":{"accessToken":"AT-CANARY-X"}}',
    ],
    ['another issuer', JSON.stringify({ ...record, issuer: 'https://other.example' })],
    ['huge', `{"version":1,"issuer":"${issuer}","pad":"${'x'.repeat(300 * 1024)}"}`],
  ] as const;
  it.each(corrupt)('ST-04 a %s file is set aside, read as signed out, never logged', async (_, content) => {
    const path = join(root, storeFileName(issuer));
    await writeFile(path, content.replace('}', ',"canary":"FILE-CANARY"}'), { mode: 0o600 });
    const store = createTokenStore({ dir: root, issuer, logger: logger(), now: () => 1234 });
    expect(await store.read()).toEqual({ version: 1, issuer });
    expect((await readdir(root)).some((name) => name === `${storeFileName(issuer)}.corrupt-1234`)).toBe(true);
    expect(await mode(`${path}.corrupt-1234`)).toBe(0o600);
    expect(lines.join('\n')).not.toMatch(/FILE-CANARY|AT-CANARY/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('ST-05 MD-06 each issuer has its own file; neither reads the other', async () => {
    const a = createTokenStore({ dir: root, issuer, logger: logger(), now: () => 1 });
    const b = createTokenStore({ dir: root, issuer: 'https://other.example', logger: logger(), now: () => 1 });
    await a.update(() => record);
    expect(a.path).not.toBe(b.path);
    expect((await b.read()).tokens).toBeUndefined();
    expect(storeFileName(issuer)).not.toContain('school');
  });

  it('ST-04 parseStoreRecord keeps only known fields', () => {
    const parsed = parseStoreRecord(
      JSON.stringify({ ...record, extra: 'x', tokens: { ...record.tokens, extra: 1 } }),
      issuer,
    );
    expect(parsed).toEqual({ ok: true, record });
  });
});

describe('file lock', () => {
  const options = { staleMs: 30_000, now: () => Date.now() };

  it('RF-02 a live holder keeps the lock; the second attempt gets nothing', async () => {
    const path = join(root, 'x.lock');
    const first = await tryAcquireLock(path, options, { url: 'https://as.example/a' });
    expect(first).toBeDefined();
    expect(await tryAcquireLock(path, options)).toBeUndefined();
    expect((await readLock(path))?.note).toEqual({ url: 'https://as.example/a' });
    await first!.release();
    expect(await tryAcquireLock(path, options)).toBeDefined();
  });

  it('RF-02 a lock left by a dead process or too old is taken over', async () => {
    const path = join(root, 'x.lock');
    await writeFile(path, JSON.stringify({ id: 'dead', pid: 999_999_999, at: Date.now() }));
    expect(await tryAcquireLock(path, options)).toBeDefined();
    await rm(path);
    await writeFile(path, JSON.stringify({ id: 'old', pid: process.pid, at: Date.now() - 60_000 }));
    expect(await tryAcquireLock(path, options)).toBeDefined();
  });

  it('gives up with a clear error when the holder never lets go', async () => {
    const path = join(root, 'x.lock');
    await tryAcquireLock(path, options);
    await expect(acquireLock(path, { ...options, waitMs: 100, pollMs: 20, what: 'refresh' })).rejects.toMatchObject({
      code: 'OAUTH_LOCK_TIMEOUT',
    });
  });
});
