import { describe, expect, it } from 'vitest';
import { admitCaller, type HeldCaller } from '../../src/transports/caller-admission.js';

const limits = { maxCallers: 4, maxCallersPerPerson: 2 };
const held = (...entries: [string, string, boolean][]): HeldCaller[] =>
  entries.map(([caller, person, busy]) => ({ caller, person, busy }));

describe('which callers an instance keeps (pure)', () => {
  it('HOST-46 admits while there is room', () => {
    expect(admitCaller(held(['g1', 'grace', true]), 'ada', limits)).toEqual({ kind: 'admit' });
  });

  it("HOST-46 replaces a person's own least recently used idle caller once they hold their share, never another's", () => {
    expect(admitCaller(held(['g1', 'grace', false], ['a1', 'ada', true], ['a2', 'ada', false]), 'ada', limits)).toEqual(
      { kind: 'admit', drop: 'a2' },
    );
    expect(
      admitCaller(held(['g1', 'grace', false], ['a1', 'ada', false], ['a2', 'ada', false]), 'ada', limits),
    ).toEqual({ kind: 'admit', drop: 'a1' });
    expect(admitCaller(held(['g1', 'grace', false], ['a1', 'ada', true], ['a2', 'ada', true]), 'ada', limits)).toEqual({
      kind: 'refuse',
      reason: 'person',
    });
  });

  it('HOST-46 when the instance is full, takes the place of an idle caller, and refuses rather than end a busy one', () => {
    expect(
      admitCaller(
        held(['g1', 'grace', true], ['a1', 'ada', false], ['a2', 'ada', true], ['t1', 'alan', true]),
        'katherine',
        limits,
      ),
    ).toEqual({ kind: 'admit', drop: 'a1' });
    expect(
      admitCaller(
        held(['g1', 'grace', true], ['a1', 'ada', true], ['a2', 'ada', true], ['t1', 'alan', true]),
        'katherine',
        limits,
      ),
    ).toEqual({ kind: 'refuse', reason: 'server' });
  });
});
