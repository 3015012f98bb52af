/**
 * The seeded school: about 10 courses with curricula, 200 members, 500 orders over the past year in
 * every payment state, plans, subscriptions in every state, events, posts, comments, coupons,
 * digital products, lecturers, forms, pages. The same `now` always gives the same school.
 */
import { SANDBOX_SCHOOL, SANDBOX_USER } from '../../school-user.js';
import type { SchoolState } from '../store/index.js';
import { SEED_TIME_ZONE } from '../school-time.js';
import { SeedClock } from './clock.js';
import { seedCatalogue } from './catalogue.js';
import { seedOffers, seedOrders, seedSubscriptions } from './commerce.js';
import { seedEvents, seedFormsAndPages, seedPostsAndComments } from './community.js';
import { seedMembers } from './people.js';
import { SeededRandom } from './random.js';

const SEED = 20_250_314;

export function seedSchool(now: Date): SchoolState {
  const random = new SeededRandom(SEED);
  const clock = new SeedClock(now);
  const state = emptySchool(clock);
  seedCatalogue(state, random, clock);
  seedMembers(state, random, clock);
  seedOffers(state, clock);
  seedOrders(state, random, clock);
  seedSubscriptions(state, random, clock);
  seedEvents(state, random, clock);
  seedPostsAndComments(state, random, clock);
  seedFormsAndPages(state, random, clock);
  return state;
}

function emptySchool(clock: SeedClock): SchoolState {
  return {
    school: {
      id: SANDBOX_SCHOOL.orgId,
      name: SANDBOX_SCHOOL.name,
      subdomain: 'sandbox-academy',
      description: 'Creative and practical courses, taught by working professionals.',
      support_email: 'help@sandbox-academy.test',
      timezone: SEED_TIME_ZONE,
      currency: 'USD',
      locale: 'en-US',
      created_at: clock.daysAgo(730),
    },
    appearance: {
      theme: 'light',
      primary_color: '#1F6FEB',
      accent_color: '#F78166',
      font_family: 'Inter',
      logo_url: 'https://cdn.sandbox-academy.test/logo.svg',
      favicon_url: null,
      updated_at: clock.daysAgo(90),
    },
    account: { name: SANDBOX_USER.name, locale: 'en-GB', timezone: 'Europe/London' },
    courses: [],
    sections: [],
    lectures: [],
    members: [],
    enrollments: [],
    orders: [],
    membership_plans: [],
    subscriptions: [],
    coupons: [],
    digital_products: [],
    posts: [],
    comments: [],
    lecturers: [],
    events: [],
    tickets: [],
    attendees: [],
    forms: [],
    form_submissions: [],
    pages: [],
    page_deployments: [],
    files: [],
    id_counters: {},
  };
}
