import { describe, expect, it } from 'vitest';
import { SchoolMcpError } from '../../src/errors.js';
import type { GrantStore } from '../../src/grant-store/index.js';
import {
  isStoreUnavailable,
  nextStoreState,
  STORE_OUTAGE_BODY,
  storeOutageHeaders,
  watchStoreOutages,
} from '../../src/hosted/store-outage.js';

const unavailable = () =>
  new SchoolMcpError('STORE_UNAVAILABLE', 'The Redis grant store could not read a record (The client is closed).');

/** A store whose every call fails with `failure()` while it returns something, and works otherwise. */
function switchableStore(failure: () => Error | undefined): GrantStore {
  const records = new Map<string, Record<string, unknown>>();
  const guard = async <T>(run: () => T): Promise<T> => {
    const error = failure();
    if (error !== undefined) throw error;
    return run();
  };
  return {
    read: (namespace, name) => guard(() => records.get(`${namespace} ${name}`)),
    write: (namespace, name, value) => guard(() => void records.set(`${namespace} ${name}`, value)),
    remove: (namespace, name) => guard(() => void records.delete(`${namespace} ${name}`)),
    writeIfAbsent: (namespace, name, value) =>
      guard(() => !records.has(`${namespace} ${name}`) && records.set(`${namespace} ${name}`, value) !== undefined),
    take: (namespace, name) =>
      guard(() => {
        const value = records.get(`${namespace} ${name}`);
        records.delete(`${namespace} ${name}`);
        return value;
      }),
    sweep: () => guard(() => 0),
    ping: () => guard(() => undefined),
    lock: () => guard(() => ({ fence: 1, release: async () => undefined })),
    writeFenced: (namespace, name, value) => guard(() => records.set(`${namespace} ${name}`, value) !== undefined),
  };
}

describe('a store outage as the hosted server sees it', () => {
  it('tells the store not answering apart from other store failures', () => {
    expect(isStoreUnavailable(unavailable())).toBe(true);
    expect(isStoreUnavailable(new SchoolMcpError('STORE_RECORD_UNREADABLE', 'no key'))).toBe(false);
    expect(isStoreUnavailable(new Error('STORE_UNAVAILABLE'))).toBe(false);
  });

  it('announces an outage when it starts and a recovery when it ends, and nothing in between', () => {
    expect(nextStoreState('answering', true)).toEqual({ state: 'unavailable', announce: 'outage' });
    expect(nextStoreState('unavailable', true)).toEqual({ state: 'unavailable' });
    expect(nextStoreState('unavailable', false)).toEqual({ state: 'answering', announce: 'recovery' });
    expect(nextStoreState('answering', false)).toEqual({ state: 'answering' });
  });

  it('SCL-02 answers in the OAuth error shape with Retry-After: 1 and no caching', () => {
    expect(STORE_OUTAGE_BODY.error).toBe('temporarily_unavailable');
    expect(STORE_OUTAGE_BODY.error_description).toMatch(/retry/);
    expect(storeOutageHeaders()).toEqual({
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'retry-after': '1',
    });
  });

  it('SCL-03 logs one warning per outage however many calls fail, one line when the store answers again, and passes every error through', async () => {
    let down = false;
    const lines: string[] = [];
    const watched = watchStoreOutages(
      switchableStore(() => (down ? unavailable() : undefined)),
      { warn: (message) => lines.push(`warn ${message}`), info: (message) => lines.push(`info ${message}`) },
    );
    await watched.store.write('client', 'a', { n: 1 });
    down = true;
    for (let call = 0; call < 20; call += 1)
      await expect(watched.store.read('client', 'a')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await expect(watched.store.ping()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect(watched.state()).toBe('unavailable');
    down = false;
    expect(await watched.store.read('client', 'a')).toEqual({ n: 1 });
    expect(await watched.store.take('client', 'a')).toEqual({ n: 1 });
    down = true;
    await expect(watched.store.take('client', 'a')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect(lines).toEqual([
      expect.stringMatching(/^warn the grant store is not answering/),
      expect.stringMatching(/^info the grant store answers again/),
      expect.stringMatching(/^warn the grant store is not answering/),
    ]);
  });

  it('counts a store that answered with another failure as answering', async () => {
    let failure: Error | undefined = unavailable();
    const lines: string[] = [];
    const watched = watchStoreOutages(
      switchableStore(() => failure),
      { warn: (message) => lines.push(message), info: (message) => lines.push(message) },
    );
    await expect(watched.store.read('client', 'a')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    failure = new SchoolMcpError('STORE_RECORD_UNREADABLE', 'sealed with a key that is gone');
    await expect(watched.store.read('client', 'a')).rejects.toMatchObject({ code: 'STORE_RECORD_UNREADABLE' });
    expect(watched.state()).toBe('answering');
    expect(lines).toHaveLength(2);
  });
});
