/** What a consent-aware call does with the outcome of one run of its operation. */
import { describe, expect, it } from 'vitest';
import { nextConsentStep, type ConsentStep } from '../../src/consent/next-consent-step.js';
import { stepUpKey } from '../../src/consent/step-up-budget.js';
import { SchoolMcpError } from '../../src/errors.js';
import type { ExecutionOutcome } from '../../src/executor/index.js';
import type { PendingConsent } from '../../src/consent/index.js';
import { CALL, CONSENT, insufficientScope, OK, PENDING_ERROR } from './support/consent-fixtures.js';

const response = (status: number): ExecutionOutcome => ({
  ...(OK as Extract<ExecutionOutcome, { kind: 'response' }>),
  status,
});
const failure = (error: SchoolMcpError): ExecutionOutcome => ({ kind: 'error', call: CALL, error });

describe('nextConsentStep', () => {
  const cases: Array<[string, ExecutionOutcome, PendingConsent | undefined, ConsentStep]> = [
    [
      'a success is the answer, and settles the step-ups before it',
      response(201),
      undefined,
      { kind: 'answer', settlesStepUps: true },
    ],
    ['a 3xx is a success', response(304), undefined, { kind: 'answer', settlesStepUps: true }],
    [
      'an API error is the answer, and settles nothing',
      response(404),
      undefined,
      { kind: 'answer', settlesStepUps: false },
    ],
    [
      'ERR-03 insufficient_scope: step up for the challenged scopes, counted per operation and scope set',
      insufficientScope(['coupons:write', 'analytics:read']),
      undefined,
      {
        kind: 'step-up',
        scopes: ['coupons:write', 'analytics:read'],
        key: stepUpKey(CALL.toolName, ['analytics:read', 'coupons:write']),
      },
    ],
    [
      'a sign-in that waits for consent: reach the user',
      failure(PENDING_ERROR),
      CONSENT,
      { kind: 'reach-user', consent: CONSENT },
    ],
    [
      'any other failure is the answer',
      failure(new SchoolMcpError('API_NETWORK_ERROR', 'unreachable')),
      undefined,
      { kind: 'answer', settlesStepUps: false },
    ],
  ];
  it.each(cases)('%s', (_name, outcome, pending, step) => {
    expect(nextConsentStep({ toolName: CALL.toolName, outcome, pending })).toEqual(step);
  });
});
