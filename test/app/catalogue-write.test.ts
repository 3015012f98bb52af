import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scheduleCatalogueWrite } from '../../src/app/catalogue-write.js';

describe('the catalogue write of a first start', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits for the start to pass, then writes once', async () => {
    const write = vi.fn(async () => undefined);
    const scheduled = scheduleCatalogueWrite(write);
    expect(write).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(250);
    expect(write).toHaveBeenCalledTimes(1);
    await scheduled.finish();
    expect(write).toHaveBeenCalledTimes(1);
  });

  it('is written at once, and waited for, when the server closes before its turn', async () => {
    let written = false;
    const scheduled = scheduleCatalogueWrite(async () => {
      await Promise.resolve();
      written = true;
    });
    await scheduled.finish();
    expect(written).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(written).toBe(true);
  });

  it('lets a closing server go after a bounded wait when the write does not end', async () => {
    const scheduled = scheduleCatalogueWrite(() => new Promise<void>(() => undefined));
    let finished = false;
    void scheduled.finish().then(() => (finished = true));
    await vi.advanceTimersByTimeAsync(2_999);
    expect(finished).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(finished).toBe(true);
  });

  it('leaves a write that fails in its turn for finish() to report, never an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const failure = new Error('disk full');
      const scheduled = scheduleCatalogueWrite(async () => {
        throw failure;
      });
      await vi.advanceTimersByTimeAsync(250);
      // Node reports an unhandled rejection once the microtasks after its turn have run.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      await expect(scheduled.finish()).rejects.toBe(failure);
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it('has nothing to finish when there is nothing to write', async () => {
    await expect(scheduleCatalogueWrite(undefined).finish()).resolves.toBeUndefined();
  });
});
