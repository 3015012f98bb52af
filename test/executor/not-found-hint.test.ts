import { describe, expect, it } from 'vitest';
import { notFoundHint } from '../../src/executor/not-found-hint.js';

describe("the next step after a 404, in the operation's terms", () => {
  it.each([
    [
      '/api/v1/coupons/by_code/{code}',
      'No coupon has this code: check it for typos, or list the coupons to see which codes exist.',
    ],
    [
      '/api/v1/pages/by-slug/{slug}',
      'No page has this slug: check it for typos, or list the pages to see which slugs exist.',
    ],
    ['/api/v1/coupons/{coupon_id}', 'No coupon has this id: list the coupons and use an id from there.'],
    [
      '/api/v1/membership_plans/{plan_id}',
      'No membership plan has this id: list the membership plans and use an id from there.',
    ],
    ['/api/v1/classes/{id}', 'No class has this id: list the classes and use an id from there.'],
    [
      '/api/v1/courses/{course_id}/lectures/{lecture_id}',
      'Check course_id and lecture_id: each must name something that exists (and lecture_id one of the lectures); list the lectures to find an id that does.',
    ],
    [
      '/api/v1/enrollments',
      'Check the ids in the arguments: each must name an item that exists; list those items to find one.',
    ],
  ])('%s', (pathTemplate, hint) => {
    expect(notFoundHint({ pathTemplate })).toBe(hint);
  });
});
