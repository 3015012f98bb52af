/** Subscriptions: members' recurring memberships, filterable by state; cancelling is the one write. */
import { assertTransition, findOrThrow, inStates } from '../lookup.js';
import { paginate } from '../pagination.js';
import { params } from '../path-params.js';
import type { ApiRoute, HandlerContext, RouteFamily } from '../route.js';
import { s } from '../schema.js';
import { SUBSCRIPTION_STATES, type SchoolState, type Subscription, type SubscriptionState } from '../store/index.js';

const SUBSCRIPTION_TRANSITIONS: Record<SubscriptionState, readonly SubscriptionState[]> = {
  incomplete: ['canceled'],
  trialing: ['canceled'],
  active: ['canceled'],
  past_due: ['canceled'],
  canceled: [],
  expired: [],
};

const Subscription = s.object(
  {
    id: params.subscriptionId,
    member_id: params.memberId,
    member_email: s.email("The member's email, for convenience."),
    plan_id: params.planId,
    plan_name: s.string("The plan's name, for convenience."),
    state: s.enumOf(SUBSCRIPTION_STATES, 'Subscription state.'),
    started_at: s.dateTime('When the subscription began.'),
    current_period_end: s.dateTime('End of the paid (or trial) period.'),
    trial_ends_at: s.nullable(s.dateTime('End of the trial, if there was one.')),
    canceled_at: s.nullable(s.dateTime('When it was cancelled.')),
  },
  [
    'id',
    'member_id',
    'member_email',
    'plan_id',
    'plan_name',
    'state',
    'started_at',
    'current_period_end',
    'trial_ends_at',
    'canceled_at',
  ],
  "A member's subscription to a membership plan.",
);

function subscriptionView(state: SchoolState, subscription: Subscription) {
  return {
    ...subscription,
    member_email: state.members.find((member) => member.id === subscription.member_id)?.email ?? '',
    plan_name: state.membership_plans.find((plan) => plan.id === subscription.plan_id)?.name ?? '',
  };
}

function listSubscriptions({ store, query }: HandlerContext) {
  const subscriptions = store.state.subscriptions
    .filter(
      (subscription) =>
        inStates(query['state'], subscription.state) &&
        (query['plan_id'] === undefined || subscription.plan_id === query['plan_id']) &&
        (query['member_id'] === undefined || subscription.member_id === query['member_id']),
    )
    .map((subscription) => subscriptionView(store.state, subscription));
  return paginate(subscriptions, query['page'] as number, query['per_page'] as number);
}

function cancelSubscription({ store, params: { subscriptionId } }: HandlerContext) {
  const subscription = findOrThrow(store.state.subscriptions, subscriptionId!, 'subscription');
  assertTransition('subscription', SUBSCRIPTION_TRANSITIONS, subscription.state, 'canceled');
  if (subscription.state !== 'canceled') {
    subscription.state = 'canceled';
    subscription.canceled_at = store.timestamp();
  }
  return subscriptionView(store.state, subscription);
}

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/subscriptions',
    operationId: 'list_subscriptions',
    summary: 'List subscriptions',
    description:
      "Lists subscriptions to membership plans. Filter by `state` (one or several, e.g. `past_due`), plan or member. Each item carries the member's email.",
    group: 'subscriptions',
    scopes: ['subscriptions:read'],
    anonymous: 'private',
    list: true,
    query: {
      state: s.oneOrMoreOf(SUBSCRIPTION_STATES, 'Only subscriptions in one of these states.'),
      plan_id: params.planId,
      member_id: params.memberId,
    },
    response: { status: 200, schema: s.ref('Subscription'), description: 'A page of subscriptions.' },
    handler: listSubscriptions,
  },
  {
    method: 'GET',
    path: '/api/v1/subscriptions/:subscriptionId',
    operationId: 'get_subscription',
    summary: 'Get a subscription',
    description: 'Gets one subscription by id.',
    group: 'subscriptions',
    scopes: ['subscriptions:read'],
    anonymous: 'private',
    params: { subscriptionId: params.subscriptionId },
    response: { status: 200, schema: s.ref('Subscription'), description: 'The subscription.' },
    handler: ({ store, params: { subscriptionId } }) =>
      subscriptionView(store.state, findOrThrow(store.state.subscriptions, subscriptionId!, 'subscription')),
  },
  {
    method: 'POST',
    path: '/api/v1/subscriptions/:subscriptionId/cancel',
    operationId: 'cancel_subscription',
    summary: 'Cancel a subscription',
    description:
      'Cancels a subscription now. Cancelling one that is already cancelled changes nothing; an expired one cannot be cancelled.',
    group: 'subscriptions',
    scopes: ['subscriptions:write'],
    anonymous: 'private',
    params: { subscriptionId: params.subscriptionId },
    response: { status: 200, schema: s.ref('Subscription'), description: 'The cancelled subscription.' },
    conflicts: 'The subscription has expired.',
    handler: cancelSubscription,
  },
];

export const subscriptionFamily: RouteFamily = {
  group: 'subscriptions',
  description: "Members' subscriptions to membership plans, in every payment state.",
  schemas: { Subscription },
  routes,
};
