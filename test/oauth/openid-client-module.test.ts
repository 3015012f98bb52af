/**
 * openid-client is imported once, on first use, and sync error classification sees it only after
 * that: before, nothing can be an instance of its classes, so nothing is classified as one.
 */
import { describe, expect, it, vi } from 'vitest';

describe('loading openid-client on first use', () => {
  it('is not loaded until asked, then loaded once and shared', async () => {
    vi.resetModules();
    const fresh = await import('../../src/oauth/openid-client-module.js');
    expect(fresh.loadedOpenIdClient()).toBeUndefined();
    const first = fresh.loadOpenIdClient();
    expect(fresh.loadOpenIdClient()).toBe(first);
    const module = await first;
    expect(typeof module.discovery).toBe('function');
    expect(fresh.loadedOpenIdClient()).toBe(module);
  });
});
