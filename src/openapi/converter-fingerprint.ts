/**
 * Which build of the converter wrote a cached catalogue. The version number alone does not say:
 * a working copy rebuilt after a change to the conversion keeps the same version, and would read
 * back catalogues that older code converted. The fingerprint is the names, sizes and modification
 * times of this part's own files: a release has one (its files come from its tarball), a rebuild
 * that changes a file gets another. Stat calls only, once per process.
 * @see SECURITY.md ST-09
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fingerprint of the files directly in `dir`; '' when it cannot be read. */
export function directoryFingerprint(dir: string): string {
  try {
    const hash = createHash('sha256');
    for (const name of readdirSync(dir).sort()) {
      const info = statSync(`${dir}/${name}`);
      if (info.isFile()) hash.update(`${name}\0${info.size}\0${info.mtimeMs}\n`);
    }
    return hash.digest('hex').slice(0, 16);
  } catch {
    return '';
  }
}

let thisBuild: string | undefined;

export function converterFingerprint(): string {
  thisBuild ??= directoryFingerprint(dirname(fileURLToPath(import.meta.url)));
  return thisBuild;
}
