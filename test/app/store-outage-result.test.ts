import { describe, expect, it } from 'vitest';
import { isStoreOutage } from '../../src/app/store-outage-result.js';
import { storeOutageResult } from '../../src/server/index.js';
import { SchoolMcpError } from '../../src/errors.js';

const call = { toolName: 'list_courses', method: 'GET', pathTemplate: '/courses' };

describe('the result of a hosted call that met a store outage', () => {
  it('recognises the outage thrown or inside an outcome, and nothing else', () => {
    const unavailable = new SchoolMcpError('STORE_UNAVAILABLE', 'The Redis grant store could not read a record.');
    expect(isStoreOutage(unavailable)).toBe(true);
    expect(isStoreOutage({ kind: 'error', call, error: unavailable })).toBe(true);
    expect(
      isStoreOutage({ kind: 'error', call, error: new SchoolMcpError('OAUTH_SIGN_IN_REQUIRED', 'sign in again') }),
    ).toBe(false);
    expect(isStoreOutage(new Error('STORE_UNAVAILABLE'))).toBe(false);
    expect(isStoreOutage(undefined)).toBe(false);
  });

  it('SCL-05 is an error result with the code, saying the call did not run and to call again shortly', () => {
    const result = storeOutageResult('list_courses');
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toMatch(/^list_courses failed \(STORE_UNAVAILABLE\)\.\n/);
    expect(text).toMatch(/did not run at the school/);
    expect(text).toMatch(/\nNext step: call list_courses again in a few seconds/);
  });
});
