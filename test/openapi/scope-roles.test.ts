import { describe, expect, it } from 'vitest';
import { buildCatalog, consentScopeFacts, scopeRoles } from '../../src/openapi/index.js';
import { documentWith, oauthSchemes } from './fixtures/minimal-document.js';

const ok = { '200': { description: 'OK' } };
const needs = (...scopes: string[]) => [{ school: scopes }];

/** Scopes named every way a school might: by suffix, by prefix, by a bare word, shared by reads and writes. */
function schoolDocument() {
  return documentWith(
    {
      '/courses': {
        get: { operationId: 'listCourses', security: [{ school: ['courses:write'] }, { school: ['courses:read'] }], responses: ok },
        post: { operationId: 'createCourse', security: needs('courses:write'), responses: ok },
      },
      '/coupons': {
        get: { operationId: 'listCoupons', security: needs('coupons:read'), responses: ok },
        post: { operationId: 'createCoupon', security: needs('coupons:write'), responses: ok },
      },
      '/org': {
        get: { operationId: 'getOrg', security: needs('read:org'), responses: ok },
        patch: { operationId: 'updateOrg', security: needs('read:org', 'write:org'), responses: ok },
      },
      '/reports': { get: { operationId: 'getReports', security: needs('reports'), responses: ok } },
      '/admin': {
        get: { operationId: 'getAdmin', security: needs('admin'), responses: ok },
        delete: { operationId: 'resetAdmin', security: needs('admin'), responses: ok },
      },
      '/catalogue': { get: { operationId: 'publicCatalogue', security: [], responses: ok } },
    },
    { components: oauthSchemes },
  );
}

describe('what scopes allow, from the operations', () => {
  it('AZ-08 a scope is readable when some read operation accepts it, and writing when some change accepts it, whatever its name', async () => {
    const catalog = await buildCatalog(schoolDocument());
    const roles = scopeRoles(catalog.operations);
    expect([...roles.readable].sort()).toEqual(['admin', 'coupons:read', 'courses:read', 'courses:write', 'read:org', 'reports']);
    expect([...roles.writing].sort()).toEqual(['admin', 'coupons:write', 'courses:write', 'read:org', 'write:org']);
  });

  it('the first consent takes the reads of the enabled toolsets, leaving out any scope that a change also accepts', async () => {
    const catalog = await buildCatalog(schoolDocument());
    const toolsetOf = (name: string) => catalog.byName.get(name)?.toolset;
    expect([toolsetOf('list_courses'), toolsetOf('get_org'), toolsetOf('get_reports'), toolsetOf('get_admin')]).toEqual(['courses', 'org', 'reports', 'admin']);
    // read:org is also needed to change the org, admin also resets: neither is asked for up front.
    expect(consentScopeFacts(catalog.operations, ['courses', 'coupons', 'org', 'reports', 'admin', 'public']).upFront).toEqual(['coupons:read', 'courses:read', 'reports']);
    expect(consentScopeFacts(catalog.operations, ['coupons']).upFront).toEqual(['coupons:read']);
    expect(consentScopeFacts(catalog.operations, []).upFront).toEqual([]);
  });

  it("names, for each scope that lets data change, the reads of its group to ask for with it", async () => {
    const catalog = await buildCatalog(schoolDocument());
    const facts = consentScopeFacts(catalog.operations, []);
    expect(facts.readsWith).toEqual({ 'courses:write': ['courses:read'], 'coupons:write': ['coupons:read'] });
    expect(facts.readable).toEqual(['admin', 'coupons:read', 'courses:read', 'courses:write', 'read:org', 'reports']);
  });

  it('for a read, prefers the alternative with no scope that a change accepts, whatever the spelling', async () => {
    const catalog = await buildCatalog(
      documentWith(
        {
          '/a': {
            get: { operationId: 'readA', security: [{ school: ['a.manage'] }, { school: ['a.view'] }], responses: ok },
            post: { operationId: 'changeA', security: needs('a.manage'), responses: ok },
          },
        },
        { components: oauthSchemes },
      ),
    );
    expect(catalog.byName.get('read_a')?.requiredScopes).toEqual(['a.view']);
  });
});
