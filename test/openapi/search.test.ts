import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildCatalogue,
  loadDocument,
  parseDocumentText,
  searchOperations,
  type ToolCatalogue,
} from '../../src/openapi/index.js';
import { nearOperations, searchWords, unknownWords } from '../../src/openapi/search.js';
import { createSandbox } from '@school-mcp/sandbox';
import { documentWith } from './fixtures/minimal-document.js';

const SCHOOL = 'http://127.0.0.1:1';
const FIXTURES = join(import.meta.dirname, '../fixtures/openapi');

const ok = { '200': { description: 'OK' } };

const document = documentWith({
  '/courses': {
    get: { operationId: 'listCourses', summary: 'List courses', tags: ['courses'], responses: ok },
    post: { operationId: 'createCourse', summary: 'Create a course', responses: ok },
  },
  '/coupons': {
    get: { operationId: 'listCoupons', summary: 'List coupons', responses: ok },
    post: {
      operationId: 'createCoupon',
      summary: 'Create a coupon',
      description: 'A discount code for courses.',
      responses: ok,
    },
  },
  '/members/{id}': {
    delete: {
      operationId: 'deleteMember',
      summary: 'Remove a member',
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: ok,
    },
  },
});

describe('searchOperations', () => {
  it('ranks the operation whose name matches every word first', async () => {
    const catalogue = await buildCatalogue(document);
    const names = searchOperations(catalogue, 'create coupon').map((result) => result.operation.toolName);
    expect(names[0]).toBe('create_coupon');
    expect(names).not.toContain('delete_member');
  });

  it('understands plurals and everyday verbs', async () => {
    const catalogue = await buildCatalogue(document);
    expect(searchOperations(catalogue, 'add courses')[0]?.operation.toolName).toBe('create_course');
    expect(searchOperations(catalogue, 'remove member')[0]?.operation.toolName).toBe('delete_member');
    expect(searchWords('listCourses /course-players')).toEqual(['list', 'cours', 'cours', 'player']);
    expect(searchWords('Enrolments enrolled enrollment')).toEqual(['enroll', 'enroll', 'enroll']);
    expect(searchWords('colours color')).toEqual(['color', 'color']);
    expect(searchWords('sign Jane up, look it up, roll it back')).toEqual(['signup', 'jan', 'find', 'rollback']);
  });

  it('is deterministic, respects the limit, and lists in catalogue order for an empty query', async () => {
    const catalogue = await buildCatalogue(document);
    expect(searchOperations(catalogue, 'course', 2)).toEqual(searchOperations(catalogue, 'course', 2));
    expect(searchOperations(catalogue, 'course', 2)).toHaveLength(2);
    expect(searchOperations(catalogue, '', 3).map((result) => result.operation.toolName)).toEqual([
      'list_courses',
      'create_course',
      'list_coupons',
    ]);
    expect(searchOperations(catalogue, 'zebra')).toEqual([]);
  });
});

describe('searchOperations ranking', () => {
  const favourites = documentWith({
    '/users/{id}/favourite_courses': {
      get: {
        operationId: 'listFavouriteCourses',
        summary: 'List favourite courses',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: ok,
      },
    },
    '/courses': { get: { operationId: 'listCourses', summary: 'List courses', responses: ok } },
    '/courses/{id}': {
      get: {
        operationId: 'getCourse',
        summary: 'Get a course',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: ok,
      },
      delete: {
        operationId: 'deleteCourse',
        summary: 'Delete a course',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: ok,
      },
    },
    '/orders': {
      get: {
        operationId: 'listOrders',
        summary: 'List orders',
        parameters: [{ name: 'status', in: 'query', schema: { type: 'string', enum: ['paid', 'past_due'] } }],
        responses: ok,
      },
    },
  });
  const names = async (query: string) =>
    searchOperations(await buildCatalogue(favourites), query).map((result) => result.operation.toolName);

  it('puts the name made of the query words before one with more words in it', async () => {
    expect((await names('list courses'))[0]).toBe('list_courses');
    expect((await names('favourite courses'))[0]).toBe('list_favourite_courses');
  });

  it('answers a delete with deletes only, never with a read', async () => {
    expect(await names('delete course')).toEqual(['delete_course']);
    expect(await names('remove courses')).toEqual(['delete_course']);
    expect(await names('delete order')).toEqual([]);
  });

  it('finds a parameter value; a word no operation holds is named, not matched to something else', async () => {
    expect(await names('past due orders')).toEqual(['list_orders']);
    expect(await names('list invoices')).toEqual(['list_orders']);
    expect(await names('list zebras')).toEqual([]);
    expect(await names('refund order')).toEqual(['list_orders']);
    expect(unknownWords(await buildCatalogue(favourites), 'refund order')).toEqual(['refund']);
  });

  it('names the operations of the subject when no operation makes the change asked for', async () => {
    const catalogue = await buildCatalogue(favourites);
    expect(searchOperations(catalogue, 'delete order')).toEqual([]);
    expect(nearOperations(catalogue, 'delete order').map((operation) => operation.toolName)).toEqual(['list_orders']);
  });
});

describe('searchOperations on real catalogues', () => {
  // One catalogue per document for all its searches, as a server keeps one: building them again
  // for each query (a sandbox each time, the Thinkific YAML each time) was this file's CPU.
  let sandboxBuilt: Promise<ToolCatalogue> | undefined;
  let thinkificBuilt: Promise<ToolCatalogue> | undefined;
  const sandboxCatalogue = () =>
    (sandboxBuilt ??= (async () => {
      const sandbox = createSandbox(SCHOOL, {});
      try {
        const loaded = await loadDocument({
          schoolUrl: SCHOOL,
          fetch: (url, init) => sandbox.fetch(new Request(url, init)),
        });
        return await buildCatalogue(loaded.document, { schoolUrl: SCHOOL });
      } finally {
        await sandbox.close();
      }
    })());
  const thinkific = () =>
    (thinkificBuilt ??= buildCatalogue(
      parseDocumentText(readFileSync(join(FIXTURES, 'thinkific-admin-v1.openapi.yaml'), 'utf8'), {
        source: 'thinkific',
      }).document,
    ));
  const top = (catalogue: ToolCatalogue, query: string) =>
    searchOperations(catalogue, query).map((result) => result.operation.toolName);

  it.each([
    ['list courses', 'list_courses'],
    ['past due subscriptions', 'list_subscriptions'],
    ['list subscriptions past due', 'list_subscriptions'],
    ['cancel subscription', 'cancel_subscription'],
    ['remove lecturer from course', 'detach_lecturer_from_course'],
    ['form submissions', 'list_form_submissions'],
    ['set school name', 'update_school'],
    ['upload file', 'upload_file'],
  ])('the sandbox: %s finds %s first', async (query, expected) => {
    expect(top(await sandboxCatalogue(), query)[0]).toBe(expected);
  });

  it.each([
    ['enrol a learner on a programme', 'create_enrollment'],
    ['add a label to a customer', 'update_member'],
    ['colour scheme of the site', 'get_appearance'],
    ['take the lecturer off the course', 'detach_lecturer_from_course'],
    ['roll the about page back', 'rollback_page'],
  ])("the sandbox, in an administrator's words: %s finds %s first", async (query, expected) => {
    expect(top(await sandboxCatalogue(), query)[0]).toBe(expected);
  });

  it('the sandbox: "enrolment" the noun asks for a read, "enrol" the verb for an enrolment', async () => {
    const catalogue = await sandboxCatalogue();
    const numbers = top(catalogue, 'enrollment numbers for last quarter');
    expect(numbers.slice(0, 3)).toContain('get_enrollment_summary');
    expect(numbers[0]).not.toBe('create_enrollment');
    expect(top(catalogue, 'enrol the new member')[0]).toBe('create_enrollment');
  });

  it('the sandbox: a change is never answered with a read, and an unknown subject with nothing', async () => {
    const catalogue = await sandboxCatalogue();
    for (const query of ['delete event', 'delete course', 'add member', 'update coupon', 'cancel order']) {
      for (const name of top(catalogue, query))
        expect(catalogue.byName.get(name)!.method, `${query}: ${name}`).not.toBe('get');
    }
    expect(top(catalogue, 'delete event')).toEqual([]);
    expect(top(catalogue, 'zebra migration')).toEqual([]);
  });

  it.each([
    ['list courses', 'get_courses'],
    ['delete coupon', 'delete_coupon_by_id'],
    ['create enrollment', 'create_enrollment'],
    ['update user', 'update_user_by_id'],
    ['course reviews', 'get_course_reviews'],
  ])('Thinkific: %s finds %s first', async (query, expected) => {
    expect(top(await thinkific(), query)[0]).toBe(expected);
  });

  it('Thinkific: says nothing rather than a wrong operation for what the API cannot do', async () => {
    const catalogue = await thinkific();
    expect(top(catalogue, 'delete course')).toEqual([]);
    expect(top(catalogue, 'cancel order')).toEqual([]);
    // Thinkific's students are its users.
    expect(top(catalogue, 'list students')[0]).toBe('get_users');
  });
});
