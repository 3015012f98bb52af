import { timingSafeEqual } from 'node:crypto';

/** Compares two secrets without leaking through timing where they first differ. */
export function equalSecrets(actual: string, expected: string): boolean {
  const a = Buffer.from(actual);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
