import { describe, expect, it } from 'vitest';
import { storeCommandAnswer } from '../../src/cli/index.js';
import { formatStoreReport, type StoreReportInput } from '../../src/cli/store-report.js';

const census = (underOld: number, unreadable = 0) => ({
  keys: [
    { keyId: 'bbbbbbbbbbbbbbbb', records: 10 - underOld, current: true, given: true },
    { keyId: 'aaaaaaaaaaaaaaaa', records: underOld, current: false, given: true },
    ...(unreadable === 0 ? [] : [{ keyId: 'cccccccccccccccc', records: unreadable, current: false, given: false }]),
  ],
  underOldKeys: underOld,
  unreadable,
  unreadableByNamespace: (unreadable === 0 ? {} : { 'school-grant': 1, 'oidc-access-token': unreadable - 1 }) as Record<
    string,
    number
  >,
  expired: 0,
});

describe('the report of school-mcp store keys and store reseal', () => {
  it('ST-13 counts by key with the next step: reseal while records remain under an old key', () => {
    const report: StoreReportInput = { location: '/srv/store', before: census(7), resealed: 0, changedMeanwhile: 0 };
    expect(formatStoreReport(report)).toEqual([
      'grant store: /srv/store',
      '  current key bbbbbbbbbbbbbbbb: 3 records',
      '  old key aaaaaaaaaaaaaaaa: 7 records',
      '7 records under an old key: run `school-mcp store reseal` before dropping a key.',
    ]);
    expect(storeCommandAnswer({ kind: 'census', report }, false).exitCode).toBe(0);
  });

  it('ST-13 shows the counts before and after a reseal, and says the old key may go once none remain', () => {
    const report: StoreReportInput = {
      location: 'redis://127.0.0.1:6379/0',
      before: census(7, 3),
      after: census(0, 3),
      resealed: 6,
      changedMeanwhile: 1,
    };
    const lines = formatStoreReport(report);
    expect(lines).toContain(
      'resealed 6 records with the current key (1 record changed meanwhile, left as its writer left it); counted again:',
    );
    expect(lines).toContain('  old key aaaaaaaaaaaaaaaa: 0 records');
    expect(lines).toContain('  key not given cccccccccccccccc: 3 records');
    expect(
      lines.some((line) =>
        line.startsWith('3 records cannot be read with any key given (oidc-access-token 2, school-grant 1)'),
      ),
    ).toBe(true);
    expect(lines.at(-1)).toBe(
      'no record that opens is under an old key: the old keys may be dropped (keep the current key first).',
    );
    expect(storeCommandAnswer({ kind: 'census', report }, false)).toEqual({
      text: `${lines.join('\n')}\n`,
      exitCode: 0,
    });
  });

  it('ST-12 exits 1 after a reseal that left records under an old key, so a script does not drop it', () => {
    const report: StoreReportInput = {
      location: '/s',
      before: census(7),
      after: census(2),
      resealed: 5,
      changedMeanwhile: 0,
    };
    const answer = storeCommandAnswer({ kind: 'census', report }, true);
    expect(answer.exitCode).toBe(1);
    expect(JSON.parse(answer.text)).toEqual(report);
    expect(formatStoreReport(report).at(-1)).toBe(
      '2 records still under an old key: run `school-mcp store reseal` again before dropping a key.',
    );
  });

  it('ST-11 says what a secrets reset did, and exits 1 when the secrets open and nothing was reset', () => {
    expect(storeCommandAnswer({ kind: 'secrets-reset', outcome: 'removed' }, false)).toMatchObject({
      exitCode: 0,
      text: expect.stringMatching(/^removed .*step-up links already sent stop working/),
    });
    expect(storeCommandAnswer({ kind: 'secrets-reset', outcome: 'readable' }, false)).toMatchObject({
      exitCode: 1,
      text: expect.stringMatching(/nothing was reset/),
    });
    expect(storeCommandAnswer({ kind: 'secrets-reset', outcome: 'absent' }, false)).toMatchObject({ exitCode: 0 });
  });
});
