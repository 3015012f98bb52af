/** A child process's stderr as lines, with a wait for the first line that matches. */
import type { Readable } from 'node:stream';

export interface LineLog {
  readonly lines: string[];
  /** Resolves with the first line (seen or to come) matching `pattern`. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<string>;
}

export function collectLines(stream: Readable | null | undefined): LineLog {
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  let partial = '';
  stream?.on('data', (chunk: Buffer) => {
    partial += chunk.toString('utf8');
    const complete = partial.split('\n');
    partial = complete.pop() ?? '';
    for (const line of complete) {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.pattern.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  return {
    lines,
    waitFor(pattern, timeoutMs) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no line matched ${pattern} within ${timeoutMs} ms:\n${lines.slice(-20).join('\n')}`)),
          timeoutMs,
        );
        waiters.push({ pattern, resolve: (line) => (clearTimeout(timer), resolve(line)) });
      });
    },
  };
}
