import { describe, expect, it } from 'vitest';
import { buildCatalogue, selectOperations, type ToolCatalogue } from '../../src/openapi/index.js';
import { narrowestAlternative, scopeRoles } from '../../src/openapi/scope-roles.js';
import { scopeAlternatives, scopeGroup } from '../../src/openapi/toolsets.js';
import { documentWith, oauthSchemes } from './fixtures/minimal-document.js';

const ok = { '200': { description: 'OK' } };

function schoolDocument() {
  return documentWith(
    {
      '/courses': {
        get: {
          operationId: 'listCourses',
          summary: 'List courses',
          security: [{ school: ['courses:write'] }, { school: ['courses:read'] }],
          responses: ok,
        },
        post: {
          operationId: 'createCourse',
          summary: 'Create a course',
          security: [{ school: ['courses:write'] }],
          responses: ok,
        },
      },
      '/courses/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        put: { operationId: 'replaceCourse', security: [{ school: ['courses:write'] }], responses: ok },
        delete: { operationId: 'deleteCourse', security: [{ school: ['courses:write'] }], responses: ok },
      },
      '/coupons': { post: { operationId: 'createCoupon', responses: ok } },
      '/catalogue': { get: { operationId: 'publicCatalogue', security: [], responses: ok } },
      '/reports': { get: { operationId: 'report', security: [{}, { school: ['students:read'] }], responses: ok } },
      '/legacy': {
        get: { operationId: 'legacy', security: [{ legacyKey: [] }, { school: ['students:read'] }], responses: ok },
      },
      '/enrolments': {
        get: { operationId: 'enrolments', security: [{ school: ['students:read', 'courses:read'] }], responses: ok },
      },
    },
    { components: oauthSchemes, security: [{ school: ['coupons:write'] }] },
  );
}

describe('scopes and toolsets', () => {
  it.each([
    ['courses:read', 'courses'],
    ['courses:write', 'courses'],
    ['membership_plans:write', 'membership_plans'],
    ['write:org', 'org'],
    ['openid', 'openid'],
    ['https://www.googleapis.com/auth/classroom.courses.readonly', 'courses'],
    ['https://www.googleapis.com/auth/classroom.courses', 'courses'],
    ['https://www.googleapis.com/auth/classroom.coursework.me.readonly', 'coursework'],
    ['https://www.googleapis.com/auth/classroom.push-notifications', 'push_notifications'],
    ['https://www.googleapis.com/auth/drive', 'drive'],
    ['https://purl.imsglobal.org/spec/or/v1p2/scope/roster-core.readonly', 'roster_core'],
  ])('puts %s in the group %s', (scope, group) => {
    expect(scopeGroup(scope)).toBe(group);
  });

  it('understands OR of requirement objects, AND within one, root security, and public alternatives', async () => {
    const catalogue = await buildCatalogue(schoolDocument());
    const view = Object.fromEntries(
      catalogue.operations.map((operation) => [
        operation.toolName,
        [operation.scopeAlternatives, operation.requiredScopes, operation.toolset],
      ]),
    );
    expect(view).toEqual({
      list_courses: [[['courses:write'], ['courses:read']], ['courses:read'], 'courses'],
      create_course: [[['courses:write']], ['courses:write'], 'courses'],
      replace_course: [[['courses:write']], ['courses:write'], 'courses'],
      delete_course: [[['courses:write']], ['courses:write'], 'courses'],
      create_coupon: [[['coupons:write']], ['coupons:write'], 'coupons'],
      public_catalogue: [[], [], 'public'],
      report: [[['students:read']], ['students:read'], 'students'],
      legacy: [[['students:read']], ['students:read'], 'students'],
      enrolments: [[['students:read', 'courses:read']], ['students:read', 'courses:read'], 'students'],
    });
    expect(catalogue.scopeDescriptions['coupons:write']).toBe('Write access to coupons');
  });

  it('keeps the scopes of an operation that anonymous callers may also use, so administrators sign in for the full view', async () => {
    const catalogue = await buildCatalogue(schoolDocument());
    expect(catalogue.byName.get('report')?.anonymousAccess).toBe(true);
    expect(catalogue.byName.get('report')?.description).toBe(
      'Report.\n\nRequires scope: students:read. Without sign-in, only the public view is served.',
    );
    expect(catalogue.byName.get('public_catalogue')?.anonymousAccess).toBeUndefined();
    expect(scopeAlternatives(undefined, [{}, { bearer: [] }], { bearer: { type: 'http', scheme: 'bearer' } })).toEqual(
      [],
    );
  });

  it('API-09 asks for the narrowest alternative: no read-write scope when a read-only one is accepted, then fewest scopes, then fewest operations opened', () => {
    // Read and write decided by the operations, whatever the spelling: `a` and `c` are accepted by writes.
    const roles = scopeRoles([
      { method: 'post', scopeAlternatives: [['a'], ['admin']] },
      { method: 'delete', scopeAlternatives: [['c']] },
      { method: 'put', scopeAlternatives: [['admin']] },
      { method: 'patch', scopeAlternatives: [['admin']] },
      { method: 'get', scopeAlternatives: [['a'], ['a.readonly'], ['b.readonly', 'd.readonly'], ['c']] },
      { method: 'get', scopeAlternatives: [['wide.readonly']] },
      { method: 'get', scopeAlternatives: [['wide.readonly'], ['narrow.readonly']] },
    ]);
    expect(roles.isWriteCapable('a')).toBe(true);
    expect(roles.isWriteCapable('a.readonly')).toBe(false);
    expect(narrowestAlternative([['a'], ['a.readonly']], 'get', roles)).toEqual(['a.readonly']);
    expect(narrowestAlternative([['c'], ['b.readonly', 'd.readonly']], 'get', roles)).toEqual([
      'b.readonly',
      'd.readonly',
    ]);
    expect(narrowestAlternative([['wide.readonly'], ['narrow.readonly']], 'get', roles)).toEqual(['narrow.readonly']);
    expect(narrowestAlternative([['admin'], ['a']], 'get', roles)).toEqual(['a']);
    expect(narrowestAlternative([['x'], ['y']], 'get', scopeRoles([]))).toEqual(['x']);
  });

  it('for a read, first of all takes an alternative whose scopes enable no change', () => {
    const roles = scopeRoles([
      { method: 'post', scopeAlternatives: [['a:write']] },
      { method: 'post', scopeAlternatives: [['c:write']] },
    ]);
    expect(narrowestAlternative([['a:write'], ['a:read']], 'get', roles)).toEqual(['a:read']);
    expect(narrowestAlternative([['a:write'], ['a:read']], 'get', scopeRoles([]))).toEqual(['a:write']);
    expect(narrowestAlternative([['a:read', 'b:read'], ['c:write']], 'get', roles)).toEqual(['a:read', 'b:read']);
    expect(narrowestAlternative([['a:read', 'b:read'], ['c:read']], 'get', roles)).toEqual(['c:read']);
  });

  it('API-09 counts only the scope that grants the write when a write asks for a read scope beside it', () => {
    const roles = scopeRoles([
      { method: 'get', scopeAlternatives: [['courses:read']] },
      { method: 'post', scopeAlternatives: [['courses:read', 'courses:write']] },
    ]);
    expect(roles.isWriteCapable('courses:read')).toBe(false);
    expect(roles.isWriteCapable('courses:write')).toBe(true);
  });

  it('tells a bearer scheme from ones the bridge cannot present', () => {
    expect(scopeAlternatives(undefined, [{ bearer: [] }], { bearer: { type: 'http', scheme: 'bearer' } })).toEqual([
      [],
    ]);
    expect(scopeAlternatives(undefined, [{ basic: [] }], { basic: { type: 'http', scheme: 'basic' } })).toEqual([[]]);
  });

  it('ends descriptions with the scope needed, or says the tool is public', async () => {
    const catalogue = await buildCatalogue(schoolDocument());
    expect(catalogue.byName.get('create_coupon')?.description).toBe('Create coupon.\n\nRequires scope: coupons:write.');
    expect(catalogue.byName.get('list_courses')?.description).toBe(
      'List courses.\n\nRequires scope: courses:read. Also accepted: courses:write.',
    );
    expect(catalogue.byName.get('public_catalogue')?.description.endsWith('Public: no sign-in needed.')).toBe(true);
  });

  it('API-09 annotates reads, destructive writes and idempotent methods', async () => {
    const catalogue = await buildCatalogue(schoolDocument());
    expect(catalogue.byName.get('list_courses')?.annotations).toEqual({
      title: 'List courses',
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(catalogue.byName.get('create_course')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(catalogue.byName.get('replace_course')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      title: 'Replace course',
    });
    expect(catalogue.byName.get('delete_course')?.annotations).toMatchObject({
      destructiveHint: true,
      idempotentHint: true,
    });
  });
});

describe('selection', () => {
  let catalogue: ToolCatalogue;
  const names = (selected: ToolCatalogue) => selected.operations.map((operation) => operation.toolName);

  it('selects toolsets by name, or all', async () => {
    catalogue = await buildCatalogue(schoolDocument());
    expect(names(selectOperations(catalogue, { toolsets: ['coupons', 'public'] }))).toEqual([
      'create_coupon',
      'public_catalogue',
    ]);
    expect(names(selectOperations(catalogue, { toolsets: 'all' }))).toEqual(names(catalogue));
  });

  it('API-09 AZ-08 read-only keeps reads and drops the alternatives that would also let data change', async () => {
    catalogue = await buildCatalogue(schoolDocument());
    const selected = selectOperations(catalogue, { readOnly: true });
    expect(names(selected)).toEqual(['list_courses', 'public_catalogue', 'report', 'legacy', 'enrolments']);
    const listCourses = selected.byName.get('list_courses');
    expect(listCourses?.scopeAlternatives).toEqual([['courses:read']]);
    expect(listCourses?.description.endsWith('Requires scope: courses:read.')).toBe(true);
    const requested = selected.operations.flatMap((operation) => operation.scopeAlternatives.flat());
    expect(requested.every((scope) => scope.endsWith(':read'))).toBe(true);
  });

  it('AZ-08 read-only keeps a read whose every alternative a change also accepts: a read accepts those scopes', async () => {
    const shared = await buildCatalogue(
      documentWith(
        {
          '/stats': {
            get: { operationId: 'getStats', security: [{ school: ['admin'] }], responses: ok },
            delete: { operationId: 'resetStats', security: [{ school: ['admin'] }], responses: ok },
          },
        },
        { components: oauthSchemes },
      ),
    );
    const selected = selectOperations(shared, { readOnly: true });
    expect(names(selected)).toEqual(['get_stats']);
    expect(selected.byName.get('get_stats')?.requiredScopes).toEqual(['admin']);
  });

  it('API-09 lets an exact tool list win over toolsets and applies exclusions last', async () => {
    catalogue = await buildCatalogue(schoolDocument());
    expect(
      names(selectOperations(catalogue, { toolsets: ['public'], tools: ['create_coupon', 'delete_course'] })),
    ).toEqual(['delete_course', 'create_coupon']);
    expect(names(selectOperations(catalogue, { toolsets: ['courses'], excludeTools: ['delete_course'] }))).toEqual([
      'list_courses',
      'create_course',
      'replace_course',
    ]);
  });

  it('refuses unknown toolsets and tools, naming the valid ones', async () => {
    catalogue = await buildCatalogue(schoolDocument());
    expect(() => selectOperations(catalogue, { toolsets: ['courses', 'grades'] })).toThrow(
      expect.objectContaining({
        code: 'OPENAPI_UNKNOWN_TOOLSET',
        hint: expect.stringContaining('coupons, courses, public, students'),
      }),
    );
    expect(() => selectOperations(catalogue, { tools: ['create_coupons'] })).toThrow(
      expect.objectContaining({ code: 'OPENAPI_UNKNOWN_TOOL', hint: expect.stringContaining('create_coupon') }),
    );
    expect(() => selectOperations(catalogue, { excludeTools: ['nope'] })).toThrow(
      expect.objectContaining({ code: 'OPENAPI_UNKNOWN_TOOL' }),
    );
  });
});
