/**
 * A child's stderr as lines, with waiters: each line satisfies at most one waiter, and a waiter
 * also sees lines that arrived before it asked (a link printed before the test looked for it).
 */
import type { Readable } from 'node:stream';

export interface LineCollector {
  /** Every complete line so far. */
  readonly stderr: string[];
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
    waitForLine(pattern, timeoutMs = 20_000) {
      return new Promise((resolveLine, reject) => {
        const timer = setTimeout(() => reject(new Error(`no stderr line matched ${pattern} in ${timeoutMs} ms; stderr:\n${stderr.join('\n')}`)), timeoutMs);
        waiters.push({ pattern, resolve: (line) => (clearTimeout(timer), resolveLine(line)) });
        deliver();
      });
    },
  };
}
