import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { converterFingerprint, directoryFingerprint } from '../../src/openapi/converter-fingerprint.js';

let dir: string | undefined;

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the fingerprint of the converter build that wrote a cached catalogue', () => {
  it('ST-09 changes when a file of the part is rebuilt, so a catalogue converted by older code of the same version is not read back', async () => {
    dir = await mkdtemp(join(tmpdir(), 'school-mcp-fingerprint-'));
    await writeFile(join(dir, 'catalogue.js'), 'export const a = 1;\n');
    await writeFile(join(dir, 'operations.js'), 'export const b = 2;\n');
    const before = directoryFingerprint(dir);
    expect(directoryFingerprint(dir)).toBe(before);
    await utimes(join(dir, 'catalogue.js'), new Date(), new Date(Date.now() + 5_000));
    const touched = directoryFingerprint(dir);
    expect(touched).not.toBe(before);
    await writeFile(join(dir, 'operations.js'), 'export const b = 22;\n');
    expect(directoryFingerprint(dir)).not.toBe(touched);
  });

  it('is empty for a folder it cannot read, and stable for this build', () => {
    expect(directoryFingerprint('/nonexistent/school-mcp')).toBe('');
    expect(converterFingerprint()).toMatch(/^[0-9a-f]{16}$/);
    expect(converterFingerprint()).toBe(converterFingerprint());
  });
});
