/** Orders: what members bought and the state of each payment. Read-only, as the scopes say. */
import { findOrThrow, inRange, inStates } from '../lookup.js';
import { cents, currency } from '../money.js';
import { paginate } from '../pagination.js';
import { params } from '../path-params.js';
import type { ApiRoute, HandlerContext, RouteFamily } from '../route.js';
import { s } from '../schema.js';
import { PAYMENT_STATES, PRODUCT_TYPES } from '../store/index.js';

const Order = s.object(
  {
    id: params.orderId,
    member_id: params.memberId,
    product_type: s.enumOf(PRODUCT_TYPES, 'What kind of thing was bought.'),
    product_id: s.id('The id of the course, plan, ticket or digital product bought.', 'crs_0001'),
    product_name: s.string('Name of the product at the time of purchase.'),
    amount_cents: cents('Amount charged after discount.'),
    discount_cents: cents('Discount applied.', 0),
    currency,
    coupon_code: s.nullable(s.string('Coupon used, if any.', { example: 'SPRING25' })),
    state: s.enumOf(PAYMENT_STATES, 'Payment state.'),
    created_at: s.dateTime('When the order was placed.'),
    paid_at: s.nullable(s.dateTime('When payment succeeded.')),
  },
  [
    'id',
    'member_id',
    'product_type',
    'product_id',
    'product_name',
    'amount_cents',
    'discount_cents',
    'currency',
    'coupon_code',
    'state',
    'created_at',
    'paid_at',
  ],
  'An order placed by a member.',
);

function listOrders({ store, query }: HandlerContext) {
  const orders = store.state.orders.filter(
    (order) =>
      inStates(query['state'], order.state) &&
      (query['member_id'] === undefined || order.member_id === query['member_id']) &&
      (query['product_type'] === undefined || order.product_type === query['product_type']) &&
      (query['product_id'] === undefined || order.product_id === query['product_id']) &&
      inRange(order.created_at, query['created_after'], query['created_before'], store.state.school.timezone),
  );
  return paginate(orders, query['page'] as number, query['per_page'] as number);
}

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/orders',
    operationId: 'list_orders',
    summary: 'List orders',
    description:
      'Lists orders oldest first. Filter by date range (`created_after` inclusive, `created_before` exclusive), payment `state`, member or product.',
    group: 'orders',
    scopes: ['orders:read'],
    anonymous: 'private',
    list: true,
    query: {
      state: s.oneOrMoreOf(PAYMENT_STATES, 'Only orders in one of these payment states.'),
      created_after: s.dateOrDateTime('Placed at or after this moment.', '2025-03-01'),
      created_before: s.dateOrDateTime('Placed before this moment.', '2025-04-01'),
      member_id: params.memberId,
      product_type: s.enumOf(PRODUCT_TYPES, 'Only orders of this kind of product.'),
      product_id: s.id('Only orders of this product.', 'crs_0001'),
    },
    response: { status: 200, schema: s.ref('Order'), description: 'A page of orders.' },
    handler: listOrders,
  },
  {
    method: 'GET',
    path: '/api/v1/orders/:orderId',
    operationId: 'get_order',
    summary: 'Get an order',
    description: 'Gets one order by id.',
    group: 'orders',
    scopes: ['orders:read'],
    anonymous: 'private',
    params: { orderId: params.orderId },
    response: { status: 200, schema: s.ref('Order'), description: 'The order.' },
    handler: ({ store, params: { orderId } }) => findOrThrow(store.state.orders, orderId!, 'order'),
  },
];

export const orderFamily: RouteFamily = {
  group: 'orders',
  description: 'Orders and their payment states (read-only).',
  schemas: { Order },
  routes,
};
