/**
 * school-mcp's own version, read from its package.json, for what depends on the code that wrote
 * it (the catalogue cache's key). Found from this file's place in the package, built or not;
 * undefined when it is not where a package keeps it (then nothing version-keyed is cached).
 */
import { createRequire } from 'node:module';

/** dist/src/app/ as tsc builds it; dist/bin/ in the bin's bundle and src/app/ when run from source. */
const CANDIDATES = ['../../../package.json', '../../package.json'];

export function packageVersion(): string | undefined {
  const require = createRequire(import.meta.url);
  for (const candidate of CANDIDATES) {
    try {
      const found = require(candidate) as { name?: unknown; version?: unknown };
      if (found.name === 'school-mcp' && typeof found.version === 'string') return found.version;
    } catch {
      // Not at this depth.
    }
  }
  return undefined;
}
