/** Membership plans: recurring offers that include courses. Published plans are public. */
import { ApiError, notFound } from '../api-error.js';
import { applyPatch, assertTransition, findOrThrow, isStaff, inStates } from '../lookup.js';
import { cents, currency } from '../money.js';
import { paginate } from '../pagination.js';
import { params } from '../path-params.js';
import type { ApiRoute, HandlerContext, RouteFamily } from '../route.js';
import { partial, s } from '../schema.js';
import { PLAN_STATES, type MembershipPlan, type PlanState } from '../store/index.js';

const PLAN_TRANSITIONS: Record<PlanState, readonly PlanState[]> = {
  draft: ['published'],
  published: ['archived'],
  archived: [],
};

const planFields = {
  name: s.string('Plan name.', { minLength: 1, maxLength: 200, example: 'All-access monthly' }),
  description: s.string('What members get.', { maxLength: 5000 }),
  interval: s.enumOf(['month', 'year'] as const, 'Billing interval.'),
  price_cents: cents('Price per interval.', 2900),
  currency,
  trial_days: s.integer('Free trial length; 0 for none.', { minimum: 0, maximum: 365, example: 7 }),
};

const MembershipPlan = s.object(
  {
    id: params.planId,
    ...planFields,
    state: s.enumOf(PLAN_STATES, 'Lifecycle state: draft → published → archived.'),
    course_ids: s.array(params.courseId, 'Courses included in the plan.'),
    created_at: s.dateTime('When the plan was created.'),
    updated_at: s.dateTime('When the plan last changed.'),
  },
  [
    'id',
    'name',
    'description',
    'interval',
    'price_cents',
    'currency',
    'trial_days',
    'state',
    'course_ids',
    'created_at',
    'updated_at',
  ],
  'A membership plan.',
);

const MembershipPlanCreate = s.object(
  { ...planFields, course_ids: s.array(params.courseId, 'Courses to include from the start.', { maxItems: 100 }) },
  ['name', 'interval', 'price_cents'],
  'A new plan; it starts as a draft.',
);

const MembershipPlanUpdate = partial(
  s.object({ ...planFields, state: s.enumOf(PLAN_STATES, 'New state; draft → published → archived.') }, []),
  'Plan fields to change.',
);

function listPlans({ store, caller, query }: HandlerContext) {
  const staff = isStaff(caller);
  const plans = store.state.membership_plans.filter(
    (plan) => (staff || plan.state === 'published') && inStates(query['state'], plan.state),
  );
  return paginate(plans, query['page'] as number, query['per_page'] as number);
}

function getPlan({ store, caller, params: { planId } }: HandlerContext) {
  const plan = findOrThrow(store.state.membership_plans, planId!, 'membership plan');
  if (!isStaff(caller) && plan.state !== 'published') throw notFound('membership plan', planId!);
  return plan;
}

function createPlan({ store, body }: HandlerContext) {
  const input = body as Pick<MembershipPlan, 'name' | 'interval' | 'price_cents'> & Partial<MembershipPlan>;
  const courseIds = [...new Set(input.course_ids ?? [])];
  for (const courseId of courseIds) findOrThrow(store.state.courses, courseId, 'course');
  const now = store.timestamp();
  const plan: MembershipPlan = {
    id: store.newId('pln'),
    name: input.name,
    description: input.description ?? '',
    interval: input.interval,
    price_cents: input.price_cents,
    currency: input.currency ?? store.state.school.currency,
    trial_days: input.trial_days ?? 0,
    state: 'draft',
    course_ids: courseIds,
    created_at: now,
    updated_at: now,
  };
  store.state.membership_plans.push(plan);
  return plan;
}

function updatePlan({ store, params: { planId }, body }: HandlerContext) {
  const plan = findOrThrow(store.state.membership_plans, planId!, 'membership plan');
  const patch = body as Partial<MembershipPlan>;
  if (patch.state !== undefined) assertTransition('membership plan', PLAN_TRANSITIONS, plan.state, patch.state);
  if (applyPatch(plan, patch).length > 0) plan.updated_at = store.timestamp();
  return plan;
}

function attachCourse({ store, params: { planId }, body }: HandlerContext) {
  const plan = findOrThrow(store.state.membership_plans, planId!, 'membership plan');
  const { course_id: courseId } = body as { course_id: string };
  const course = findOrThrow(store.state.courses, courseId, 'course');
  if (course.state === 'archived')
    throw new ApiError('invalid_state_transition', `course ${courseId} is archived and cannot join a plan`);
  if (!plan.course_ids.includes(courseId)) {
    plan.course_ids.push(courseId);
    plan.updated_at = store.timestamp();
  }
  return plan;
}

function detachCourse({ store, params: { planId, courseId } }: HandlerContext) {
  const plan = findOrThrow(store.state.membership_plans, planId!, 'membership plan');
  if (!plan.course_ids.includes(courseId!))
    throw new ApiError('not_found', `course ${courseId} is not part of plan ${planId}`);
  plan.course_ids = plan.course_ids.filter((id) => id !== courseId);
  plan.updated_at = store.timestamp();
  return plan;
}

const planParam = { planId: params.planId };

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/membership_plans',
    operationId: 'list_membership_plans',
    summary: 'List membership plans',
    description: 'Lists membership plans. Without a token only published plans are listed.',
    group: 'membership_plans',
    scopes: ['membership_plans:read'],
    anonymous: 'public',
    list: true,
    query: { state: s.oneOrMoreOf(PLAN_STATES, 'Only plans in one of these states.') },
    response: { status: 200, schema: s.ref('MembershipPlan'), description: 'A page of plans.' },
    handler: listPlans,
  },
  {
    method: 'POST',
    path: '/api/v1/membership_plans',
    operationId: 'create_membership_plan',
    summary: 'Create a membership plan',
    description:
      'Creates a draft plan with its pricing, optionally including courses. Publish it with update_membership_plan.',
    group: 'membership_plans',
    scopes: ['membership_plans:write'],
    anonymous: 'private',
    body: { schema: s.ref('MembershipPlanCreate') },
    response: { status: 201, schema: s.ref('MembershipPlan'), description: 'The created plan.' },
    handler: createPlan,
  },
  {
    method: 'GET',
    path: '/api/v1/membership_plans/:planId',
    operationId: 'get_membership_plan',
    summary: 'Get a membership plan',
    description: 'Gets one plan with its included courses.',
    group: 'membership_plans',
    scopes: ['membership_plans:read'],
    anonymous: 'public',
    params: planParam,
    response: { status: 200, schema: s.ref('MembershipPlan'), description: 'The plan.' },
    handler: getPlan,
  },
  {
    method: 'PATCH',
    path: '/api/v1/membership_plans/:planId',
    operationId: 'update_membership_plan',
    summary: 'Update a membership plan',
    description: 'Changes pricing, description or state (draft → published → archived) of a plan.',
    group: 'membership_plans',
    scopes: ['membership_plans:write'],
    anonymous: 'private',
    params: planParam,
    body: { schema: s.ref('MembershipPlanUpdate') },
    response: { status: 200, schema: s.ref('MembershipPlan'), description: 'The plan as stored.' },
    conflicts: 'The state move is not allowed.',
    handler: updatePlan,
  },
  {
    method: 'POST',
    path: '/api/v1/membership_plans/:planId/courses',
    operationId: 'attach_course_to_plan',
    summary: 'Include a course in a plan',
    description:
      'Adds a course to what a plan includes; adding it twice changes nothing. Needs to read the course as well as write the plan.',
    group: 'membership_plans',
    scopes: ['membership_plans:write', 'courses:read'],
    anonymous: 'private',
    params: planParam,
    body: { schema: s.object({ course_id: params.courseId }, ['course_id']) },
    response: { status: 200, schema: s.ref('MembershipPlan'), description: 'The plan with its courses.' },
    conflicts: 'The course is archived.',
    handler: attachCourse,
  },
  {
    method: 'DELETE',
    path: '/api/v1/membership_plans/:planId/courses/:courseId',
    operationId: 'detach_course_from_plan',
    summary: 'Remove a course from a plan',
    description: 'Stops including a course in a plan.',
    group: 'membership_plans',
    scopes: ['membership_plans:write'],
    anonymous: 'private',
    params: { ...planParam, courseId: params.courseId },
    response: { status: 200, schema: s.ref('MembershipPlan'), description: 'The plan with its remaining courses.' },
    handler: detachCourse,
  },
];

export const membershipPlanFamily: RouteFamily = {
  group: 'membership_plans',
  description: 'Membership plans and the courses they include. Published plans are public.',
  schemas: { MembershipPlan, MembershipPlanCreate, MembershipPlanUpdate },
  routes,
};
