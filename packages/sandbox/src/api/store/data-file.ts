/**
 * `--data FILE`: the school's state as one JSON document, replaced atomically (write a sibling
 * temporary file, then rename) so a crash never leaves half a school behind.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { SchoolState } from './records.js';

const REQUIRED_COLLECTIONS = ['courses', 'members', 'orders', 'id_counters'] as const;

export function loadStateFile(file: string): SchoolState | undefined {
  if (!existsSync(file)) return undefined;
  return parseState(readFileSync(file, 'utf8'), file);
}

/** Pure twin of `loadStateFile`: refuses a document that is not a sandbox school. */
function parseState(text: string, source: string): SchoolState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new Error(`sandbox data file ${source} is not JSON`, { cause });
  }
  if (typeof parsed !== 'object' || parsed === null)
    throw new Error(`sandbox data file ${source} is not a JSON object`);
  const record = parsed as Record<string, unknown>;
  const missing = REQUIRED_COLLECTIONS.filter((key) => typeof record[key] !== 'object' || record[key] === null);
  if (missing.length > 0)
    throw new Error(
      `sandbox data file ${source} lacks ${missing.join(', ')}; delete it to start from the seeded school`,
    );
  return parsed as SchoolState;
}

export function saveStateFile(file: string, state: SchoolState): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(state), { mode: 0o600 });
  renameSync(temporary, file);
}
