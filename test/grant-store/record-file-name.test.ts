import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  isRecordFileName,
  lockDirOf,
  recordAddressOf,
  recordFileName,
  scratchPathOf,
  setAsidePathOf,
} from '../../src/grant-store/record-file-name.js';

const digest = (name: string) => createHash('sha256').update(name, 'utf8').digest('base64url');

describe('record file names (pure)', () => {
  it.each([['usr_owner_ada'], ['an access token: a.b.c'], ['élève 7'], ['../../etc/passwd']])(
    'HST-04 names the file of record %j by the SHA-256 of its name, and nothing else of it',
    (name) => {
      const file = recordFileName(name);
      expect(file).toBe(`${digest(name)}.rec`);
      expect(file).toMatch(/^[A-Za-z0-9_-]{43}\.rec$/);
      expect(recordAddressOf('school-grant', name)).toEqual({ namespace: 'school-grant', name: file });
    },
  );

  it.each([
    ['School-Grant', 'usr_ada', /not a store namespace/],
    ['../escape', 'usr_ada', /not a store namespace/],
    ['', 'usr_ada', /not a store namespace/],
    ['school-grant', '', /a record needs a name/],
  ])('refuses the namespace %j with the name %j', (namespace, name, message) => {
    expect(() => recordAddressOf(namespace, name)).toThrowError(RangeError);
    expect(() => recordAddressOf(namespace, name)).toThrowError(message);
  });

  it.each([
    ['abc.rec', true],
    ['abc.rec.lock', false],
    ['abc.rec.0a1b2c3d4e5f.tmp', false],
    ['abc.rec.damaged-1800000000', false],
    ['abc', false],
  ])('counts %j as a record file: %s', (entry, expected) => {
    expect(isRecordFileName(entry)).toBe(expected);
  });

  it('names the files next to a record so that none of them is a record file', () => {
    const path = '/store/school-grant/abc.rec';
    const neighbours = [lockDirOf(path), setAsidePathOf(path, 1_800_000_000), scratchPathOf(path, '0a1b2c3d4e5f')];
    expect(neighbours).toEqual([
      '/store/school-grant/abc.rec.lock',
      '/store/school-grant/abc.rec.damaged-1800000000',
      '/store/school-grant/abc.rec.0a1b2c3d4e5f.tmp',
    ]);
    expect(neighbours.filter(isRecordFileName)).toEqual([]);
  });
});
