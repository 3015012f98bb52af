import { describe, expect, it } from 'vitest';
import { buildCatalogue, consentScopeFacts, scopeRoles } from '../../src/openapi/index.js';
import { documentWith, oauthSchemes } from './fixtures/minimal-document.js';
import { enablesChange } from '../../src/openapi/scope-roles.js';

const ok = { '200': { description: 'OK' } };
const needs = (...scopes: string[]) => [{ school: scopes }];

/** Scopes named every way a school might: by suffix, by prefix, by a bare word, shared by reads and writes. */
function schoolDocument() {
  return documentWith(
    {
      '/courses': {
        get: {
          operationId: 'listCourses',
          security: [{ school: ['courses:write'] }, { school: ['courses:read'] }],
          responses: ok,
        },
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
      '/plans': { post: { operationId: 'createPlan', security: needs('plans:write', 'courses:read'), responses: ok } },
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
  it('AZ-08 a scope is readable when some read operation accepts it, whatever its name', async () => {
    const catalogue = await buildCatalogue(schoolDocument());
    expect([...scopeRoles(catalogue.operations).readable].sort()).toEqual([
      'admin',
      'coupons:read',
      'courses:read',
      'courses:write',
      'read:org',
      'reports',
    ]);
  });

  it('a set of scopes enables a change only when it holds a whole alternative of an operation that changes data', async () => {
    const { changes } = scopeRoles((await buildCatalogue(schoolDocument())).operations);
    expect(enablesChange(['courses:read'], changes)).toBe(false);
    expect(enablesChange(['read:org'], changes)).toBe(false);
    expect(enablesChange(['read:org', 'write:org'], changes)).toBe(true);
    expect(enablesChange(['admin'], changes)).toBe(true);
    expect(enablesChange(['courses:read', 'plans:write'], changes)).toBe(true);
  });

  it('a change is found whichever of its scopes the held set names first, and one that needs no scope is enabled by any set', () => {
    const changes = [['b', 'a'], ['b', 'c'], ['d']];
    expect(enablesChange(['a', 'b'], changes)).toBe(true);
    expect(enablesChange(['c', 'x', 'b'], changes)).toBe(true);
    expect(enablesChange(['a', 'c'], changes)).toBe(false);
    expect(enablesChange([], changes)).toBe(false);
    expect(enablesChange(['x'], [...changes, []])).toBe(true);
  });

  it('the first consent takes the reads of the enabled toolsets, less any scope that alone lets data change', async () => {
    const catalogue = await buildCatalogue(schoolDocument());
    const toolsetOf = (name: string) => catalogue.byName.get(name)?.toolset;
    expect([toolsetOf('list_courses'), toolsetOf('get_org'), toolsetOf('get_reports'), toolsetOf('get_admin')]).toEqual(
      ['courses', 'org', 'reports', 'admin'],
    );
    // admin also resets, so it waits for its first need; courses:read and read:org change nothing on their own.
    expect(
      consentScopeFacts(catalogue.operations, ['courses', 'coupons', 'org', 'reports', 'admin', 'public']).upFront,
    ).toEqual(['coupons:read', 'courses:read', 'read:org', 'reports']);
    expect(consentScopeFacts(catalogue.operations, ['coupons']).upFront).toEqual(['coupons:read']);
    expect(consentScopeFacts(catalogue.operations, []).upFront).toEqual([]);
  });

  it('names, for each scope that some change accepts and that is no read itself, the reads of its group to ask for with it', async () => {
    const catalogue = await buildCatalogue(schoolDocument());
    const facts = consentScopeFacts(catalogue.operations, []);
    // courses:read is needed to create a plan, read:org to change the org: they are reads, never keys.
    expect(facts.readsWith).toEqual({
      'courses:write': ['courses:read'],
      'coupons:write': ['coupons:read'],
      'write:org': ['read:org'],
    });
    expect(facts.readable).toEqual(['admin', 'coupons:read', 'courses:read', 'courses:write', 'read:org', 'reports']);
  });

  it('for a read, prefers the alternative that enables no change, whatever the spelling', async () => {
    const catalogue = await buildCatalogue(
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
    expect(catalogue.byName.get('read_a')?.requiredScopes).toEqual(['a.view']);
  });
});
