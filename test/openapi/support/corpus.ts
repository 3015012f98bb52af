/**
 * The third-party documents of test/fixtures/openapi, with what each must yield: the test of the
 * generator and the test of `school-mcp tools` check against the same figures.
 */
export const CORPUS = [
  {
    file: 'thinkific-admin-v1.openapi.yaml',
    operations: 73,
    groupedBy: 'tags',
    toolsets: ['courses', 'enrollments', 'coupons'],
  },
  { file: 'github-rest-2020-07-30.openapi.yaml', operations: 623, groupedBy: 'tags', toolsets: ['repos', 'issues'] },
  {
    file: 'google-classroom-v1.openapi.yaml',
    operations: 61,
    groupedBy: 'scopes',
    toolsets: ['courses', 'coursework', 'rosters', 'announcements'],
  },
  {
    file: 'edfi-oneroster-v1p2.openapi.yaml',
    operations: 24,
    groupedBy: 'scopes',
    toolsets: ['roster_core', 'roster_demographics'],
  },
  { file: 'kubernetes.swagger.json', operations: 1_123, groupedBy: 'tags', toolsets: ['core_v1', 'apps_v1'] },
  { file: 'sume-lms-course.swagger.json', operations: 15, groupedBy: 'tags', toolsets: ['courses', 'subscriptions'] },
  { file: 'magento-cart.openapi.yaml', operations: 74, groupedBy: 'paths', toolsets: ['carts'] },
  {
    file: 'clever-data-v1p2.openapi.yaml',
    operations: 44,
    groupedBy: 'tags',
    toolsets: ['students', 'teachers', 'sections'],
  },
] as const;
