/** Coupons: discount codes, optionally limited to courses, a date and a number of uses. */
import { ApiError, invalidInput } from '../api-error.js';
import { applyPatch, findOrThrow } from '../lookup.js';
import { cents, currency } from '../money.js';
import { paginate } from '../pagination.js';
import { params } from '../path-params.js';
import { writtenInstant } from '../school-time.js';
import type { ApiRoute, HandlerContext, RouteFamily } from '../route.js';
import { s } from '../schema.js';
import type { Coupon, SchoolState } from '../store/index.js';
import type { FieldProblem } from '../validate.js';

const code = s.string('The code buyers type; letters, digits, `-` and `_`, stored upper-case.', {
  minLength: 3,
  maxLength: 32,
  pattern: '^[A-Za-z0-9_-]+$',
  example: 'SPRING25',
});

const couponFields = {
  discount_type: s.enumOf(
    ['percent', 'amount'] as const,
    '`percent` uses `percent_off`; `amount` uses `amount_off_cents` and `currency`.',
  ),
  percent_off: s.nullable(
    s.integer('Percentage off, for `percent` coupons.', { minimum: 1, maximum: 100, example: 20 }),
  ),
  amount_off_cents: s.nullable(cents('Fixed amount off, for `amount` coupons.', 1000)),
  currency: s.nullable(currency),
  course_ids: s.array(params.courseId, 'Courses the coupon applies to; empty means every course.', { maxItems: 100 }),
  expires_at: s.nullable(s.dateTime('Last moment the coupon can be used; null for no end.', '2025-04-18T23:59:59Z')),
  max_redemptions: s.nullable(
    s.integer('How many times it can be used in total; null for no limit.', {
      minimum: 1,
      maximum: 1_000_000,
      example: 100,
    }),
  ),
};

const Coupon = s.object(
  {
    id: params.couponId,
    code,
    ...couponFields,
    redemptions: s.integer('How many times it has been used.', { minimum: 0 }),
    active: s.boolean('Whether it can be used now (also false once expired or used up).'),
    created_at: s.dateTime('When the coupon was created.'),
  },
  [
    'id',
    'code',
    'discount_type',
    'percent_off',
    'amount_off_cents',
    'currency',
    'course_ids',
    'expires_at',
    'max_redemptions',
    'redemptions',
    'active',
    'created_at',
  ],
  'A discount coupon.',
);

const expiresAtInput = s.nullable(
  s.dateOrDateTime('Last day (through its end) or moment the coupon can be used; null for no end.', '2025-04-18'),
);

const CouponCreate = s.object(
  { code, ...couponFields, expires_at: expiresAtInput },
  ['code', 'discount_type'],
  'A new coupon.',
);

const CouponUpdate = s.object(
  {
    active: s.boolean('Switch the coupon on or off.'),
    expires_at: expiresAtInput,
    max_redemptions: couponFields.max_redemptions,
  },
  [],
  'Coupon fields that may change after creation.',
  { minProperties: 1 },
);

/** A coupon as a buyer would experience it now: stored `active` also accounts for expiry and use. */
function couponView(coupon: Coupon, now: string): Coupon {
  const expired = coupon.expires_at !== null && coupon.expires_at < now;
  const usedUp = coupon.max_redemptions !== null && coupon.redemptions >= coupon.max_redemptions;
  return { ...coupon, active: coupon.active && !expired && !usedUp };
}

function findByCode(state: SchoolState, wanted: string): Coupon | undefined {
  return state.coupons.find((coupon) => coupon.code === wanted.toUpperCase());
}

/** Pure: the cross-field rules the schema alone cannot say. */
function couponProblems(input: Partial<Coupon>, now: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (input.discount_type === 'percent' && (input.percent_off ?? null) === null) {
    problems.push({ field: 'percent_off', message: 'is required for a percent coupon' });
  }
  if (input.discount_type === 'amount') {
    if ((input.amount_off_cents ?? null) === null)
      problems.push({ field: 'amount_off_cents', message: 'is required for an amount coupon' });
    if ((input.currency ?? null) === null)
      problems.push({ field: 'currency', message: 'is required for an amount coupon' });
  }
  if (input.expires_at && input.expires_at <= now)
    problems.push({ field: 'expires_at', message: 'must be in the future' });
  return problems;
}

/** Pure: an expiry as stored, in UTC; a date alone keeps the coupon valid through that school day. */
export function storedExpiry(value: string | null | undefined, timeZone: string): string | null | undefined {
  return typeof value === 'string' ? writtenInstant(value, timeZone, 'end') : value;
}

function createCoupon({ store, body }: HandlerContext) {
  const sent = body as Pick<Coupon, 'code' | 'discount_type'> & Partial<Coupon>;
  const input = { ...sent, expires_at: storedExpiry(sent.expires_at, store.state.school.timezone) };
  const now = store.timestamp();
  const problems = couponProblems(input, now);
  if (problems.length > 0) throw invalidInput(problems);
  const existing = findByCode(store.state, input.code);
  if (existing) throw new ApiError('conflict', `the code ${existing.code} is already used by coupon ${existing.id}`);
  for (const courseId of input.course_ids ?? []) findOrThrow(store.state.courses, courseId, 'course');
  const percent = input.discount_type === 'percent';
  const coupon: Coupon = {
    id: store.newId('cpn'),
    code: input.code.toUpperCase(),
    discount_type: input.discount_type,
    percent_off: percent ? (input.percent_off ?? null) : null,
    amount_off_cents: percent ? null : (input.amount_off_cents ?? null),
    currency: percent ? null : (input.currency ?? null),
    course_ids: [...new Set(input.course_ids ?? [])],
    expires_at: input.expires_at ?? null,
    max_redemptions: input.max_redemptions ?? null,
    redemptions: 0,
    active: true,
    created_at: now,
  };
  store.state.coupons.push(coupon);
  return couponView(coupon, now);
}

function listCoupons({ store, query }: HandlerContext) {
  const now = store.timestamp();
  const coupons = store.state.coupons
    .map((coupon) => couponView(coupon, now))
    .filter(
      (coupon) =>
        (query['active'] === undefined || coupon.active === query['active']) &&
        (query['course_id'] === undefined ||
          coupon.course_ids.length === 0 ||
          coupon.course_ids.includes(query['course_id'] as string)),
    );
  return paginate(coupons, query['page'] as number, query['per_page'] as number);
}

function getCouponByCode({ store, params: { code: wanted } }: HandlerContext) {
  const coupon = findByCode(store.state, wanted!);
  if (!coupon) throw new ApiError('not_found', `no coupon with code ${JSON.stringify(wanted)}`);
  return couponView(coupon, store.timestamp());
}

function updateCoupon({ store, params: { couponId }, body }: HandlerContext) {
  const coupon = findOrThrow(store.state.coupons, couponId!, 'coupon');
  const sent = body as Partial<Coupon>;
  const patch = { ...sent, expires_at: storedExpiry(sent.expires_at, store.state.school.timezone) };
  const now = store.timestamp();
  const problems = couponProblems({ expires_at: patch.expires_at ?? null }, now);
  if (problems.length > 0) throw invalidInput(problems);
  applyPatch(coupon, patch);
  return couponView(coupon, now);
}

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/coupons',
    operationId: 'list_coupons',
    summary: 'List coupons',
    description: 'Lists coupons. `course_id` keeps the coupons usable on that course (including school-wide ones).',
    group: 'coupons',
    scopes: ['coupons:read'],
    anonymous: 'private',
    list: true,
    query: { active: s.boolean('Only coupons usable now (true) or not (false).'), course_id: params.courseId },
    response: { status: 200, schema: s.ref('Coupon'), description: 'A page of coupons.' },
    handler: listCoupons,
  },
  {
    method: 'POST',
    path: '/api/v1/coupons',
    operationId: 'create_coupon',
    summary: 'Create a coupon',
    description:
      'Creates a coupon code. For "20% off Course A until Friday, 100 uses": `discount_type: percent`, `percent_off: 20`, `course_ids: [A]`, `expires_at`, `max_redemptions: 100`. Verify with get_coupon_by_code.',
    group: 'coupons',
    scopes: ['coupons:write'],
    anonymous: 'private',
    body: { schema: s.ref('CouponCreate') },
    response: { status: 201, schema: s.ref('Coupon'), description: 'The created coupon.' },
    conflicts: 'The code is already taken.',
    handler: createCoupon,
  },
  {
    method: 'GET',
    path: '/api/v1/coupons/by_code/:code',
    operationId: 'get_coupon_by_code',
    summary: 'Find a coupon by its code',
    description: 'Gets the coupon with this code (case-insensitive).',
    group: 'coupons',
    scopes: ['coupons:read'],
    anonymous: 'private',
    params: { code },
    response: { status: 200, schema: s.ref('Coupon'), description: 'The coupon.' },
    handler: getCouponByCode,
  },
  {
    method: 'GET',
    path: '/api/v1/coupons/:couponId',
    operationId: 'get_coupon',
    summary: 'Get a coupon',
    description: 'Gets one coupon by id.',
    group: 'coupons',
    scopes: ['coupons:read'],
    anonymous: 'private',
    params: { couponId: params.couponId },
    response: { status: 200, schema: s.ref('Coupon'), description: 'The coupon.' },
    handler: ({ store, params: { couponId } }) =>
      couponView(findOrThrow(store.state.coupons, couponId!, 'coupon'), store.timestamp()),
  },
  {
    method: 'PATCH',
    path: '/api/v1/coupons/:couponId',
    operationId: 'update_coupon',
    summary: 'Update a coupon',
    description:
      'Switches a coupon on or off, or changes its end date or use limit. The code and discount cannot change: create a new coupon instead.',
    group: 'coupons',
    scopes: ['coupons:write'],
    anonymous: 'private',
    params: { couponId: params.couponId },
    body: { schema: s.ref('CouponUpdate') },
    response: { status: 200, schema: s.ref('Coupon'), description: 'The coupon as stored.' },
    handler: updateCoupon,
  },
];

export const couponFamily: RouteFamily = {
  group: 'coupons',
  description: 'Discount coupons.',
  schemas: { Coupon, CouponCreate, CouponUpdate },
  routes,
};
