import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runStoreCommand } from '../../src/app/index.js';
import { loadConfig } from '../../src/config/index.js';
import { openDirectoryStore, parseStoreKeys } from '../../src/grant-store/index.js';
import { createLogger } from '../../src/log.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const logger = createLogger({ level: 'error', write: () => undefined });

describe('school-mcp store commands on a directory', () => {
  it('ST-14 refuses a --store directory that does not exist instead of making an empty one', async () => {
    const home = await mkdtemp(join(tmpdir(), 'school-mcp-store-command-'));
    dirs.push(home);
    const missing = join(home, 'mistyped');
    const config = loadConfig(['store', 'keys', '--store', missing], {
      SCHOOL_MCP_STORE_KEY: randomBytes(32).toString('base64'),
    });
    await expect(runStoreCommand(config, logger)).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining(missing),
    });
    await expect(stat(missing)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('ST-14 counts with the key of SCHOOL_MCP_STORE_KEY, and refuses to run without one', async () => {
    const home = await mkdtemp(join(tmpdir(), 'school-mcp-store-command-'));
    dirs.push(home);
    const dir = join(home, 'store');
    const key = randomBytes(32).toString('base64');
    const parsed = parseStoreKeys(key);
    if (!parsed.ok) throw new Error(parsed.reason);
    await (
      await openDirectoryStore({ dir, keyring: parsed.keyring, logger })
    ).write('school-grant', 'usr_ada', { who: 'ada' });
    const result = await runStoreCommand(
      loadConfig(['store', 'keys', '--store', dir], { SCHOOL_MCP_STORE_KEY: key }),
      logger,
    );
    expect(result).toMatchObject({
      kind: 'census',
      report: { location: dir, before: { keys: [{ keyId: parsed.keyring.current.id, records: 1, current: true }] } },
    });
    await expect(runStoreCommand(loadConfig(['store', 'keys', '--store', dir], {}), logger)).rejects.toMatchObject({
      code: 'STORE_KEY_INVALID',
    });
  });
});
