import { describe, expect, it } from 'vitest';
import { schoolAdvice } from '../../src/executor/school-advice.js';

describe("the school's own advice in an error message", () => {
  it.each([
    [
      'invalid_state_transition: a course needs at least one lecture before it can be published; add one with create_lecture',
      'Add one with create_lecture.',
    ],
    ['conflict: a member with email a@b.c already exists (mem_0001); use it instead', 'Use it instead.'],
    ['conflict: the slug spring is taken; choose another', 'Choose another.'],
    ['unsupported_media_type: send the body as application/json', 'Send the body as application/json.'],
    ['The coupon is used up, please create a new coupon instead.', 'Please create a new coupon instead.'],
  ])('finds the step in %j', (message, advice) => {
    expect(schoolAdvice(message)).toBe(advice);
  });

  it.each([
    'conflict: the code SPRING is already used by coupon cpn_0001',
    'invalid_state_transition: a course cannot go from archived to published; archived is final',
    'Use of this endpoint is restricted',
    'invalid_request: invalid input: price_cents must be at least 0',
  ])('finds none in %j', (message) => {
    expect(schoolAdvice(message)).toBeUndefined();
  });

  it('finds none when there is no message', () => {
    expect(schoolAdvice(undefined)).toBeUndefined();
  });
});
