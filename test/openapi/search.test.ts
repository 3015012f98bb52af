import { describe, expect, it } from 'vitest';
import { buildCatalog, searchOperations } from '../../src/openapi/index.js';
import { searchWords } from '../../src/openapi/search.js';
import { documentWith } from './fixtures/minimal-document.js';

const ok = { '200': { description: 'OK' } };

const document = documentWith({
  '/courses': { get: { operationId: 'listCourses', summary: 'List courses', tags: ['courses'], responses: ok }, post: { operationId: 'createCourse', summary: 'Create a course', responses: ok } },
  '/coupons': { get: { operationId: 'listCoupons', summary: 'List coupons', responses: ok }, post: { operationId: 'createCoupon', summary: 'Create a coupon', description: 'A discount code for courses.', responses: ok } },
  '/members/{id}': { delete: { operationId: 'deleteMember', summary: 'Remove a member', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: ok } },
});

describe('searchOperations', () => {
  it('ranks the operation whose name matches every word first', async () => {
    const catalog = await buildCatalog(document);
    const names = searchOperations(catalog, 'create coupon').map((result) => result.operation.toolName);
    expect(names[0]).toBe('create_coupon');
    expect(names).not.toContain('delete_member');
  });

  it('understands plurals and everyday verbs', async () => {
    const catalog = await buildCatalog(document);
    expect(searchOperations(catalog, 'add courses')[0]?.operation.toolName).toBe('create_course');
    expect(searchOperations(catalog, 'remove member')[0]?.operation.toolName).toBe('delete_member');
    expect(searchWords('listCourses /course-players')).toEqual(['list', 'course', 'course', 'player']);
  });

  it('is deterministic, respects the limit, and lists in catalogue order for an empty query', async () => {
    const catalog = await buildCatalog(document);
    expect(searchOperations(catalog, 'course', 2)).toEqual(searchOperations(catalog, 'course', 2));
    expect(searchOperations(catalog, 'course', 2)).toHaveLength(2);
    expect(searchOperations(catalog, '', 3).map((result) => result.operation.toolName)).toEqual(['list_courses', 'create_course', 'list_coupons']);
    expect(searchOperations(catalog, 'zebra')).toEqual([]);
  });
});
