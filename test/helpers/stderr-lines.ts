/**
 * A child's stderr as lines, with waiters: each line satisfies at most one waiter, and a waiter
 * also sees lines that arrived before it asked (a link printed before the test looked for it).
 */
import type { Readable } from 'node:stream';

export interface LineCollector {
  /** Every complete line so far. */
  readonly stderr: string[];
  /**
   * Waits for the next unconsumed line matching `pattern`. The default limit is far above what a
   * loaded machine takes (a Python client's first line, after its start and four round trips to a
   * busy server, took over 20 s with four CPU-bound processes beside the suite) and below the
   * suite's per-test budget, so that a line that never comes still fails with the stderr so far.
   */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

export function collectLines(stream: Readable | null | undefined): LineCollector {
  const stderr: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const consumed = new Set<number>();
  const deliver = () => {
    for (const waiter of [...waiters]) {
      const index = stderr.findIndex((line, i) => !consumed.has(i) && waiter.pattern.test(line));
      if (index >= 0) {
        consumed.add(index);
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(stderr[index]!);
      }
    }
  };
  let partial = '';
  stream?.on('data', (chunk: Buffer) => {
    partial += chunk.toString('utf8');
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    stderr.push(...lines);
    deliver();
  });
  return {
    stderr,
    waitForLine(pattern, timeoutMs = 90_000) {
      return new Promise((resolveLine, reject) => {
        const timer = setTimeout(
          () =>
            reject(new Error(`no stderr line matched ${pattern} in ${timeoutMs} ms; stderr:\n${stderr.join('\n')}`)),
          timeoutMs,
        );
        waiters.push({ pattern, resolve: (line) => (clearTimeout(timer), resolveLine(line)) });
        deliver();
      });
    },
  };
}
