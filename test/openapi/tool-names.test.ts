import { describe, expect, it } from 'vitest';
import {
  assignToolNames,
  baseToolName,
  readableName,
  snakeCase,
  TOOL_NAME_PATTERN,
} from '../../src/openapi/tool-names.js';

describe('tool names', () => {
  it.each([
    ['listCourses', 'list_courses'],
    ['getCourseByID', 'get_course_by_id'],
    ['repos/list-for-org', 'repos_list_for_org'],
    ['Courses.List', 'courses_list'],
    ['  créer un cours!! ', 'cr_er_un_cours'],
  ])('snake-cases the operationId %j', (operationId, name) => {
    expect(snakeCase(operationId)).toBe(name);
  });

  it.each([
    ['get', '/courses', 'list_courses'],
    ['get', '/courses/{course_id}', 'get_courses_by_course_id'],
    ['post', '/courses/{course_id}/students', 'create_courses_by_course_id_students'],
    ['put', '/api/v1/courses/{id}', 'update_courses_by_id'],
    ['patch', '/courses/{id}', 'update_courses_by_id'],
    ['delete', '/courses/{id}', 'delete_courses_by_id'],
    ['get', '/', 'list_root'],
  ] as const)('names %s %s without an operationId as %s', (method, path, name) => {
    expect(readableName(method, path)).toBe(name);
  });

  it('API-08 shortens long ids to 51 characters with a hash of the original, so shared beginnings still differ', () => {
    const long = 'enterpriseAdminListSelfHostedRunnerGroupsForEnterpriseAndOrganisation';
    const { names } = assignToolNames([
      { operationId: `${long}One`, method: 'get', pathTemplate: '/a' },
      { operationId: `${long}Two`, method: 'get', pathTemplate: '/b' },
    ]);
    for (const name of names) {
      expect(name).toMatch(TOOL_NAME_PATTERN);
      expect(name.startsWith('enterprise_admin_list_self_hosted_runner')).toBe(true);
    }
    expect(names[0]).not.toBe(names[1]);
    expect(assignToolNames([{ operationId: `${long}One`, method: 'get', pathTemplate: '/a' }]).names).toEqual([
      names[0],
    ]);
  });

  it('API-08 makes colliding names unique whatever their order, and never from "_" alone', () => {
    const inputs = [
      { operationId: 'getCourses', method: 'get', pathTemplate: '/courses' },
      { operationId: 'get_courses', method: 'get', pathTemplate: '/v2/courses' },
      { operationId: '!!!', method: 'delete', pathTemplate: '/courses/{id}' },
    ] as const;
    const forward = assignToolNames(inputs).names;
    const backward = assignToolNames([...inputs].reverse()).names.reverse();
    expect(forward).toEqual(backward);
    // `get_courses` spelt exactly so keeps it; the other falls back to its method and path.
    expect(forward).toEqual(['list_courses', 'get_courses', 'delete_courses_by_id']);
    for (const name of forward) expect(name).toMatch(TOOL_NAME_PATTERN);
  });

  it('keeps a name that fits as it is', () => {
    expect(baseToolName({ operationId: 'coupons_create', method: 'post', pathTemplate: '/coupons' })).toBe(
      'coupons_create',
    );
  });
});
