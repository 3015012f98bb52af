/**
 * The school's scopes, exactly as the contract lists them, with the words shown on the consent
 * page and in the OpenAPI document's oauth2 flow.
 * @see docs/sandbox.md: the sandbox school, whose scopes these are
 */
export const SCOPES = {
  openid: 'OpenID Connect authentication',
  profile: 'Basic profile information',
  email: 'Email address',
  'courses:read': 'Read access to courses',
  'courses:write': 'Write access to courses',
  'students:read': 'Read access to students',
  'students:write': 'Write access to students',
  'members:read': 'Read access to members',
  'members:write': 'Write access to members',
  'analytics:read': 'Read access to analytics',
  'curriculum:read': 'Read access to curriculum',
  'curriculum:write': 'Write access to curriculum',
  'orders:read': 'Read access to orders',
  'school:read': 'Read access to school',
  'school:write': 'Write access to school',
  'appearance:read': 'Read access to appearance',
  'appearance:write': 'Write access to appearance',
  'events:read': 'Read access to events',
  'events:write': 'Write access to events',
  'membership_plans:read': 'Read access to membership plans',
  'membership_plans:write': 'Write access to membership plans',
  'coupons:read': 'Read access to coupons',
  'coupons:write': 'Write access to coupons',
  'posts:read': 'Read access to posts',
  'posts:write': 'Write access to posts',
  'subscriptions:read': 'Read access to subscriptions',
  'subscriptions:write': 'Write access to subscriptions',
  'digital_products:read': 'Read access to digital products',
  'digital_products:write': 'Write access to digital products',
  'comments:read': 'Read access to comments',
  'lecturers:read': 'Read access to lecturers',
  'lecturers:write': 'Write access to lecturers',
  'storage:write': 'Write access to storage',
  'forms:read': 'Read access to forms',
  'pages:read': 'Read access to pages',
  'pages:write': 'Write access to pages',
  'account:read': 'Read access to account',
  'account:write': 'Write access to account',
} as const satisfies Record<string, string>;

export type Scope = keyof typeof SCOPES;

export const ALL_SCOPES: readonly Scope[] = Object.keys(SCOPES) as Scope[];

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPES, value);
}
