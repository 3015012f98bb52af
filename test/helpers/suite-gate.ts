/**
 * Suites and tests that need something outside Node (a browser, redis-server, haproxy, Python's
 * MCP SDK): run where it is, skipped elsewhere with the line that says how to enable them, and
 * failed under `CI=true`, where a skip would hide a missing install.
 */
import { describe, it } from 'vitest';

export interface Prerequisite {
  readonly available: boolean;
  /** What the failing CI test says it lacks, e.g. "a browser to run in". */
  readonly what: string;
  readonly howToEnable: string;
}

export function describeNeeding(need: Prerequisite, name: string, body: () => void): void {
  if (need.available) describe(name, body);
  else if (process.env['CI'] === 'true')
    describe(name, () =>
      it(`has ${need.what}`, () => {
        throw new Error(need.howToEnable);
      }),
    );
  else describe.skip(`${name} (skipped: ${need.howToEnable})`, body);
}

export function itNeeding(need: Prerequisite, name: string, body: () => Promise<void>): void {
  if (need.available) it(name, body);
  else if (process.env['CI'] === 'true')
    it(name, () => {
      throw new Error(need.howToEnable);
    });
  else it.skip(`${name} (skipped: ${need.howToEnable})`, body);
}
