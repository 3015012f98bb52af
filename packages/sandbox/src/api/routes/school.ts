/** The school itself: name, domain and settings. Its public profile is visible to anyone. */
import { applyPatch, isStaff } from '../lookup.js';
import type { ApiRoute, HandlerContext, RouteFamily } from '../route.js';
import { partial, s } from '../schema.js';
import type { School } from '../store/index.js';

const schoolFields = {
  name: s.string('School name.', { minLength: 1, maxLength: 200, example: 'Sandbox Academy' }),
  description: s.string('About the school.', { maxLength: 5000 }),
  support_email: s.email('Where students write for help; null for visitors.', 'help@sandbox-academy.test'),
  timezone: s.string('IANA time zone used for reports and events.', { maxLength: 64, example: 'Europe/Berlin' }),
  locale: s.string('Language of the site (BCP 47).', { pattern: '^[a-z]{2}(-[A-Z]{2})?$', example: 'en-US' }),
};

const School = s.object(
  {
    id: s.string('Organisation id of the school.', { example: 'org_sandbox_academy' }),
    ...schoolFields,
    support_email: s.nullable(schoolFields.support_email),
    subdomain: s.string('Subdomain of the school site.', { example: 'sandbox-academy' }),
    url: s.uri('Address of the school site.', 'https://sandbox-academy.example.com'),
    currency: s.enumOf(['USD', 'EUR', 'GBP'] as const, 'Default currency for prices.'),
    created_at: s.dateTime('When the school was founded on the platform.'),
  },
  ['id', 'name', 'description', 'support_email', 'timezone', 'locale', 'subdomain', 'url', 'currency', 'created_at'],
  'The school. Visitors see `support_email` as null.',
);

const SchoolUpdate = partial(s.object(schoolFields, []), 'School settings to change.');

function schoolView(school: School, staff: boolean) {
  return {
    ...school,
    support_email: staff ? school.support_email : null,
    url: `https://${school.subdomain}.example.com`,
  };
}

function updateSchool({ store, body }: HandlerContext) {
  applyPatch(store.state.school, body as Partial<School>);
  return schoolView(store.state.school, true);
}

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/school',
    operationId: 'get_school',
    summary: 'Get the school and its settings',
    description:
      "Gets the school's name, site address, time zone, currency and settings. A good first call to see what the school is.",
    group: 'school',
    scopes: ['school:read'],
    anonymous: 'public',
    response: { status: 200, schema: s.ref('School'), description: 'The school.' },
    handler: ({ store, caller }) => schoolView(store.state.school, isStaff(caller)),
  },
  {
    method: 'PATCH',
    path: '/api/v1/school',
    operationId: 'update_school',
    summary: 'Change school settings',
    description: 'Changes only the given settings of the school.',
    group: 'school',
    scopes: ['school:write'],
    anonymous: 'private',
    body: { schema: s.ref('SchoolUpdate') },
    response: { status: 200, schema: s.ref('School'), description: 'The school as stored.' },
    handler: updateSchool,
  },
];

export const schoolFamily: RouteFamily = {
  group: 'school',
  description: 'The school and its settings. Its public profile is public.',
  schemas: { School, SchoolUpdate },
  routes,
};
