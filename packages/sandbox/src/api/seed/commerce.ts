/** Seeds what the school sells and what was bought: plans, coupons, digital products, orders, subscriptions. */
import {
  allocateId,
  SUBSCRIPTION_STATES,
  type Coupon,
  type DigitalProduct,
  type MembershipPlan,
  type Order,
  type PaymentState,
  type ProductType,
  type SchoolState,
  type SubscriptionState,
} from '../store/index.js';
import type { SeedClock } from './clock.js';
import { enrol } from './people.js';
import type { SeededRandom } from './random.js';

const ORDER_COUNT = 500;

const PAYMENT_WEIGHTS: ReadonlyArray<readonly [PaymentState, number]> = [
  ['paid', 70],
  ['refunded', 5],
  ['failed', 7],
  ['not_paid', 6],
  ['expired', 5],
  ['manual_enrolled', 7],
];

export function seedOffers(state: SchoolState, clock: SeedClock): void {
  const id = (prefix: string) => allocateId(state.id_counters, prefix);
  const published = state.courses.filter((course) => course.state === 'published').map((course) => course.id);
  const plan = (
    name: string,
    interval: 'month' | 'year',
    price: number,
    planState: MembershipPlan['state'],
    courseIds: string[],
    trial: number,
  ): MembershipPlan => ({
    id: id('pln'),
    name,
    description: `${name}: every included course, new lessons monthly.`,
    state: planState,
    interval,
    price_cents: price,
    currency: 'USD',
    trial_days: trial,
    course_ids: courseIds,
    created_at: clock.daysAgo(420),
    updated_at: clock.daysAgo(120),
  });
  state.membership_plans.push(
    plan('All-access monthly', 'month', 2900, 'published', published, 7),
    plan('All-access yearly', 'year', 29000, 'published', published, 14),
    plan('Creative studio', 'month', 1900, 'published', published.slice(0, 2), 0),
    plan('Teams (coming soon)', 'month', 9900, 'draft', [], 0),
  );
  const coupon = (
    code: string,
    percent: number | null,
    amount: number | null,
    courseIds: string[],
    expiresInDays: number | null,
    max: number | null,
    used: number,
    active = true,
  ): Coupon => ({
    id: id('cpn'),
    code,
    discount_type: percent === null ? 'amount' : 'percent',
    percent_off: percent,
    amount_off_cents: amount,
    currency: amount === null ? null : 'USD',
    course_ids: courseIds,
    expires_at: expiresInDays === null ? null : clock.daysAgo(-expiresInDays),
    max_redemptions: max,
    redemptions: used,
    active,
    created_at: clock.daysAgo(200),
  });
  state.coupons.push(
    coupon('WELCOME10', 10, null, [], null, null, 84),
    coupon('BLACKFRIDAY', 40, null, [], -60, 500, 212),
    coupon('PAINT15', 15, null, published.slice(0, 1), 30, 100, 17),
    coupon('FIVEOFF', null, 500, [], 90, null, 9),
    coupon('STAFFONLY', 100, null, [], null, 5, 5),
    coupon('OLDPROMO', 25, null, [], null, null, 3, false),
  );
  const product = (
    title: string,
    price: number,
    productState: DigitalProduct['state'],
    downloads: number,
  ): DigitalProduct => ({
    id: id('dgp'),
    title,
    description: `${title} (PDF).`,
    state: productState,
    price_cents: price,
    currency: 'USD',
    file_url: `https://cdn.sandbox-academy.test/downloads/${id('bin')}.pdf`,
    downloads,
    created_at: clock.daysAgo(300),
    updated_at: clock.daysAgo(100),
  });
  state.digital_products.push(
    product('Colour-mixing cheat sheet', 900, 'published', 140),
    product('Lightroom presets pack', 1900, 'published', 66),
    product('Pandas recipes e-book', 2400, 'published', 51),
    product('Yoga poster set', 1200, 'draft', 0),
  );
}

export function seedOrders(state: SchoolState, random: SeededRandom, clock: SeedClock): void {
  const sellable = state.courses.filter((course) => course.state !== 'draft');
  const products: Array<{ type: ProductType; id: string; name: string; price: number }> = [
    ...sellable.map((course) => ({
      type: 'course' as const,
      id: course.id,
      name: course.title,
      price: course.price_cents,
    })),
    ...state.digital_products
      .filter((item) => item.state === 'published')
      .map((item) => ({ type: 'digital_product' as const, id: item.id, name: item.title, price: item.price_cents })),
  ];
  const coupons = state.coupons.filter((coupon) => coupon.percent_off !== null && coupon.percent_off < 100);
  for (let index = 0; index < ORDER_COUNT; index++) {
    const member = random.pick(state.members);
    const memberAge = clock.ageInDays(member.created_at);
    const age = Math.min(364, memberAge) * random.next();
    const productChoice = random.chance(0.8)
      ? random.pick(products.filter((item) => item.type === 'course'))
      : random.pick(products);
    const paymentState = index < PAYMENT_WEIGHTS.length ? PAYMENT_WEIGHTS[index]![0] : random.weighted(PAYMENT_WEIGHTS);
    const coupon = paymentState !== 'manual_enrolled' && random.chance(0.15) ? random.pick(coupons) : undefined;
    const discount = coupon ? Math.round((productChoice.price * (coupon.percent_off ?? 0)) / 100) : 0;
    const created = clock.daysAgo(age);
    const paid = paymentState === 'paid' || paymentState === 'refunded';
    const order: Order = {
      id: allocateId(state.id_counters, 'ord'),
      member_id: member.id,
      product_type: productChoice.type,
      product_id: productChoice.id,
      product_name: productChoice.name,
      amount_cents: paymentState === 'manual_enrolled' ? 0 : productChoice.price - discount,
      discount_cents: paymentState === 'manual_enrolled' ? 0 : discount,
      currency: 'USD',
      coupon_code: coupon?.code ?? null,
      state: paymentState,
      created_at: created,
      paid_at: paid ? created : null,
    };
    state.orders.push(order);
    if (order.product_type === 'course' && (paymentState === 'paid' || paymentState === 'manual_enrolled')) {
      enrol(
        state,
        random,
        clock,
        member.id,
        order.product_id,
        created,
        paymentState === 'paid' ? 'purchase' : 'manual',
      );
    }
  }
  state.orders.sort((a, b) => a.created_at.localeCompare(b.created_at));
}

export function seedSubscriptions(state: SchoolState, random: SeededRandom, clock: SeedClock): void {
  const plans = state.membership_plans.filter((plan) => plan.state === 'published');
  const weights: ReadonlyArray<readonly [SubscriptionState, number]> = [
    ['active', 50],
    ['trialing', 10],
    ['past_due', 12],
    ['incomplete', 5],
    ['canceled', 15],
    ['expired', 8],
  ];
  const subscribers = state.members.filter((_, index) => index % 3 === 0);
  for (const [index, member] of subscribers.entries()) {
    const plan = random.pick(plans);
    const subscriptionState =
      index < SUBSCRIPTION_STATES.length ? SUBSCRIPTION_STATES[index]! : random.weighted(weights);
    const startedAge = Math.min(clock.ageInDays(member.created_at), 300) * random.next();
    const periodDays = plan.interval === 'month' ? 30 : 365;
    const ended = subscriptionState === 'canceled' || subscriptionState === 'expired';
    state.subscriptions.push({
      id: allocateId(state.id_counters, 'sub'),
      member_id: member.id,
      plan_id: plan.id,
      state: subscriptionState,
      started_at: clock.daysAgo(startedAge),
      current_period_end: clock.daysAgo(
        ended || subscriptionState === 'past_due' ? random.int(1, 20) : -random.int(1, periodDays),
      ),
      trial_ends_at: plan.trial_days > 0 ? clock.daysAgo(startedAge - plan.trial_days) : null,
      canceled_at: subscriptionState === 'canceled' ? clock.daysAgo(random.int(1, 30)) : null,
    });
    if (subscriptionState === 'active' || subscriptionState === 'trialing') {
      for (const courseId of plan.course_ids.slice(0, 2))
        enrol(state, random, clock, member.id, courseId, clock.daysAgo(startedAge), 'membership');
    }
  }
}
