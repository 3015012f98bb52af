/** How long one call waits for a consent flow. */
import { describe, expect, it } from 'vitest';
import { FLOW_END_SLACK_MS, flowWait, type FlowWait, type FlowWaitView } from '../../src/consent/flow-wait.js';

const MAX_FLOW_MS = 300_000;
const now = 1_000_000;

describe('flowWait', () => {
  const cases: Array<[string, Omit<FlowWaitView, 'maxFlowMs' | 'now'>, FlowWait]> = [
    ['nothing left of the wait: pending at once', { remainingMs: 0, flowStartedAt: now }, { kind: 'pending' }],
    ['past the deadline: pending at once', { remainingMs: -5, flowStartedAt: now }, { kind: 'pending' }],
    [
      'a wait shorter than the flow: that long',
      { remainingMs: 45_000, flowStartedAt: now },
      { kind: 'wait', ms: 45_000 },
    ],
    [
      'a wait as long as the flow lives: until the flow ends on its own',
      { remainingMs: MAX_FLOW_MS, flowStartedAt: now },
      { kind: 'wait', ms: MAX_FLOW_MS + FLOW_END_SLACK_MS },
    ],
    [
      'a flow near its end outlived by a short wait',
      { remainingMs: 10_000, flowStartedAt: now - MAX_FLOW_MS + 5_000 },
      { kind: 'wait', ms: MAX_FLOW_MS + FLOW_END_SLACK_MS },
    ],
    [
      'one millisecond short of the flow’s end',
      { remainingMs: 4_999, flowStartedAt: now - MAX_FLOW_MS + 5_000 },
      { kind: 'wait', ms: 4_999 },
    ],
  ];
  it.each(cases)('%s', (_name, view, wait) => {
    expect(flowWait({ ...view, maxFlowMs: MAX_FLOW_MS, now })).toEqual(wait);
  });
});
