/**
 * The module hooks behind record-resolved-modules.mjs. Each URL is appended synchronously, so the
 * log is whole however the process exits.
 */
import { appendFileSync } from 'node:fs';

let logFile;

export function initialize(data) {
  logFile = data?.logFile;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (logFile) appendFileSync(logFile, `${resolved.url}\n`);
  return resolved;
}
