/** Analytics: revenue and enrolment summaries over a date range, computed from orders and enrollments. */
import { invalidInput } from '../api-error.js';
import { inRange as inSchoolRange } from '../lookup.js';
import { cents, currency } from '../money.js';
import { params } from '../path-params.js';
import { addDays, dayInZone, filterInstant, schoolDay } from '../school-time.js';
import type { ApiRoute, HandlerContext, RouteFamily } from '../route.js';
import { s, type JsonSchema } from '../schema.js';
import type { Order, SchoolState } from '../store/index.js';

const rangeQuery: Record<string, JsonSchema> = {
  from: s.dateOrDateTime('First day (inclusive); 30 days before `to` by default.', '2025-03-01'),
  to: s.dateOrDateTime('Last day (inclusive); today by default.', '2025-03-31'),
};

const schoolDays = {
  from: {
    type: 'string',
    format: 'date',
    description: "First day, in the school's time zone.",
    examples: ['2025-03-01'],
  },
  to: { type: 'string', format: 'date', description: "Last day, in the school's time zone.", examples: ['2025-03-31'] },
} as const satisfies Record<string, JsonSchema>;

const range = s.object({ ...schoolDays }, ['from', 'to'], 'The days covered, both inclusive.');

const RevenueSummary = s.object(
  {
    range,
    currency,
    gross_cents: cents('Paid and later-refunded orders together.'),
    refunded_cents: cents('Refunded.'),
    net_cents: cents('Gross minus refunds.'),
    paid_orders: s.integer('Orders paid in the range (refunded ones included).', { minimum: 0 }),
    failed_orders: s.integer('Orders whose payment failed.', { minimum: 0 }),
    by_product: s.array(
      s.object(
        {
          product_type: s.string('Kind of product.'),
          product_id: s.id('The product.', 'crs_0001'),
          product_name: s.string('Its name.'),
          net_cents: cents('Net revenue.'),
          orders: s.integer('Paid orders.', { minimum: 0 }),
        },
        ['product_type', 'product_id', 'product_name', 'net_cents', 'orders'],
      ),
      'Products by net revenue, highest first (top 10).',
    ),
    by_month: s.array(
      s.object(
        {
          month: s.string('Month as YYYY-MM.', { example: '2025-03' }),
          net_cents: cents('Net revenue.'),
          orders: s.integer('Paid orders.', { minimum: 0 }),
        },
        ['month', 'net_cents', 'orders'],
      ),
      'Net revenue per calendar month in the range.',
    ),
  },
  [
    'range',
    'currency',
    'gross_cents',
    'refunded_cents',
    'net_cents',
    'paid_orders',
    'failed_orders',
    'by_product',
    'by_month',
  ],
  'Revenue over a date range.',
);

const EnrollmentSummary = s.object(
  {
    range,
    new_members: s.integer('Members who signed up in the range.', { minimum: 0 }),
    new_enrollments: s.integer('Enrollments made in the range.', { minimum: 0 }),
    completions: s.integer('Enrollments completed in the range.', { minimum: 0 }),
    by_course: s.array(
      s.object(
        {
          course_id: params.courseId,
          course_title: s.string('Course title.'),
          new_enrollments: s.integer('Enrollments made in the range.', { minimum: 0 }),
          completions: s.integer('Completions in the range.', { minimum: 0 }),
        },
        ['course_id', 'course_title', 'new_enrollments', 'completions'],
      ),
      'Courses by new enrollments, highest first.',
    ),
  },
  ['range', 'new_members', 'new_enrollments', 'completions', 'by_course'],
  'Enrolment activity over a date range.',
);

/**
 * Pure: the inclusive range of school days asked for (a date-time names the school day containing
 * it), and its half-open bounds as UTC timestamps, so a day is counted as the school lives it.
 */
export function resolveRange(query: Readonly<Record<string, unknown>>, now: Date, timeZone: string) {
  const to = typeof query['to'] === 'string' ? schoolDay(query['to'], timeZone) : dayInZone(now.getTime(), timeZone);
  const from = typeof query['from'] === 'string' ? schoolDay(query['from'], timeZone) : addDays(to, -29);
  if (from > to) throw invalidInput([{ field: 'from', message: 'must not be after to' }]);
  return { range: { from, to }, start: filterInstant(from, timeZone), end: filterInstant(addDays(to, 1), timeZone) };
}

/** Bounds are UTC timestamps here, so the zone only matters for the month a moment falls in. */
export function revenueSummary(state: SchoolState, start: string, end: string) {
  const timeZone = state.school.timezone;
  const inRange = (timestamp: string, from: string, to: string) => inSchoolRange(timestamp, from, to, timeZone);
  const counted = (order: Order) =>
    (order.state === 'paid' || order.state === 'refunded') && inRange(order.paid_at ?? order.created_at, start, end);
  const orders = state.orders.filter(counted);
  const net = (order: Order) => (order.state === 'refunded' ? 0 : order.amount_cents);
  const byProduct = new Map<
    string,
    { product_type: string; product_id: string; product_name: string; net_cents: number; orders: number }
  >();
  const byMonth = new Map<string, { month: string; net_cents: number; orders: number }>();
  for (const order of orders) {
    const product = byProduct.get(order.product_id) ?? {
      product_type: order.product_type,
      product_id: order.product_id,
      product_name: order.product_name,
      net_cents: 0,
      orders: 0,
    };
    product.net_cents += net(order);
    product.orders += 1;
    byProduct.set(order.product_id, product);
    const monthKey = dayInZone(Date.parse(order.paid_at ?? order.created_at), timeZone).slice(0, 7);
    const month = byMonth.get(monthKey) ?? { month: monthKey, net_cents: 0, orders: 0 };
    month.net_cents += net(order);
    month.orders += 1;
    byMonth.set(monthKey, month);
  }
  const gross = orders.reduce((sum, order) => sum + order.amount_cents, 0);
  const refunded = orders
    .filter((order) => order.state === 'refunded')
    .reduce((sum, order) => sum + order.amount_cents, 0);
  return {
    currency: state.school.currency,
    gross_cents: gross,
    refunded_cents: refunded,
    net_cents: gross - refunded,
    paid_orders: orders.length,
    failed_orders: state.orders.filter((order) => order.state === 'failed' && inRange(order.created_at, start, end))
      .length,
    by_product: [...byProduct.values()].sort((a, b) => b.net_cents - a.net_cents).slice(0, 10),
    by_month: [...byMonth.values()].sort((a, b) => a.month.localeCompare(b.month)),
  };
}

export function enrollmentSummary(state: SchoolState, start: string, end: string) {
  const inRange = (timestamp: string, from: string, to: string) =>
    inSchoolRange(timestamp, from, to, state.school.timezone);
  const enrolled = state.enrollments.filter((enrollment) => inRange(enrollment.enrolled_at, start, end));
  const completed = state.enrollments.filter(
    (enrollment) => enrollment.completed_at !== null && inRange(enrollment.completed_at, start, end),
  );
  const byCourse = state.courses
    .map((course) => ({
      course_id: course.id,
      course_title: course.title,
      new_enrollments: enrolled.filter((enrollment) => enrollment.course_id === course.id).length,
      completions: completed.filter((enrollment) => enrollment.course_id === course.id).length,
    }))
    .filter((row) => row.new_enrollments > 0 || row.completions > 0)
    .sort((a, b) => b.new_enrollments - a.new_enrollments);
  return {
    new_members: state.members.filter((member) => inRange(member.created_at, start, end)).length,
    new_enrollments: enrolled.length,
    completions: completed.length,
    by_course: byCourse,
  };
}

function summarise(compute: (state: SchoolState, start: string, end: string) => object) {
  return ({ store, query }: HandlerContext) => {
    const { range: days, start, end } = resolveRange(query, store.nowDate(), store.state.school.timezone);
    return { range: days, ...compute(store.state, start, end) };
  };
}

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/analytics/revenue',
    operationId: 'get_revenue_summary',
    summary: 'Revenue summary',
    description:
      "Sums paid and refunded orders over a date range (default: the last 30 days), counting days in the school's time zone, with the top products and a per-month series.",
    group: 'analytics',
    scopes: ['analytics:read'],
    anonymous: 'private',
    query: rangeQuery,
    response: { status: 200, schema: s.ref('RevenueSummary'), description: 'The revenue summary.' },
    handler: summarise(revenueSummary),
  },
  {
    method: 'GET',
    path: '/api/v1/analytics/enrollments',
    operationId: 'get_enrollment_summary',
    summary: 'Enrolment summary',
    description:
      "Counts new members, new enrollments and completions over a date range (default: the last 30 days), counting days in the school's time zone, per course.",
    group: 'analytics',
    scopes: ['analytics:read'],
    anonymous: 'private',
    query: rangeQuery,
    response: { status: 200, schema: s.ref('EnrollmentSummary'), description: 'The enrolment summary.' },
    handler: summarise(enrollmentSummary),
  },
];

export const analyticsFamily: RouteFamily = {
  group: 'analytics',
  description: 'Revenue and enrolment summaries over a date range.',
  schemas: { RevenueSummary, EnrollmentSummary },
  routes,
};
