/**
 * A school that did not open at start is tried again at a bounded pace: not on every list or
 * call of a burst, one attempt shared by the requests that arrive while it runs, never again once
 * it opened; and the calls meanwhile answer with what failed last and when the next try is.
 */
import { describe, expect, it } from 'vitest';
import { reachSchoolLater } from '../../src/app/school-reach.js';
import { FIRST_RETRY_MS, LONGEST_RETRY_MS, retryDelayMs } from '../../src/app/retry-cadence.js';
import type { OpenSchool } from '../../src/app/open-school.js';
import { SchoolMcpError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import type { SchoolServerOptions } from '../../src/server/index.js';

const refused = new SchoolMcpError('OPENAPI_FETCH_FAILED', 'The school could not be reached (ECONNREFUSED).', {
  hint: 'Check the school URL.',
});
const school = { schoolUrl: new URL('https://school.example') } as OpenSchool;
const options = { schoolName: 'school.example' } as SchoolServerOptions;

function harness(outcomes: (() => Promise<OpenSchool>)[]) {
  let clock = 1_000_000;
  let opens = 0;
  const reach = reachSchoolLater({
    failure: refused,
    open: () => outcomes[opens++]!(),
    serverOptions: () => options,
    logger: createLogger({ write: () => undefined }),
    now: () => clock,
  });
  return { reach, advance: (ms: number) => (clock += ms), opens: () => opens, now: () => clock };
}

describe('the retry cadence', () => {
  it('waits a second after the first failure, doubles, and never waits more than half a minute', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 100].map(retryDelayMs)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect(retryDelayMs(1)).toBe(FIRST_RETRY_MS);
    expect(retryDelayMs(50)).toBe(LONGEST_RETRY_MS);
  });
});

describe('reachSchoolLater', () => {
  it("STDIO-08 does not try again before the cadence allows, and keeps the start's problem meanwhile", async () => {
    const { reach, opens } = harness([() => Promise.resolve(school)]);
    expect(await reach.outage.retry()).toBeUndefined();
    expect(opens()).toBe(0);
    expect(reach.outage.problem()).toBe(refused);
  });

  it('STDIO-08 shares one attempt between the requests that arrive while it runs, and waits longer after each failure', async () => {
    let fail!: (error: unknown) => void;
    const { reach, advance, opens, now } = harness([
      () => new Promise((_, reject) => (fail = reject)),
      () => Promise.reject(refused),
    ]);
    advance(FIRST_RETRY_MS);
    const first = reach.outage.retry();
    const second = reach.outage.retry();
    expect(opens()).toBe(1);
    fail(new SchoolMcpError('OPENAPI_HTTP_STATUS', 'http://school/openapi.json answered HTTP 502.'));
    expect(await Promise.all([first, second])).toEqual([undefined, undefined]);
    expect(reach.outage.problem().code).toBe('OPENAPI_HTTP_STATUS');
    expect(reach.outage.nextAttemptAt() - now()).toBe(retryDelayMs(2));
    advance(retryDelayMs(2) - 1);
    await reach.outage.retry();
    expect(opens()).toBe(1);
  });

  it("returns the school's options once it opened, and never tries again", async () => {
    const { reach, advance, opens } = harness([() => Promise.resolve(school)]);
    advance(FIRST_RETRY_MS);
    expect(await reach.outage.retry()).toBe(options);
    expect(reach.opened()).toBe(school);
    advance(LONGEST_RETRY_MS);
    expect(await reach.outage.retry()).toBe(options);
    expect(opens()).toBe(1);
  });
});
