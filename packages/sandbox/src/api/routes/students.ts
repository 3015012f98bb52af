/**
 * Students: who is enrolled in which course and how far they got. Enrolling someone who is
 * already enrolled answers the existing enrolment instead of adding a second one.
 */
import { ApiError } from '../api-error.js';
import { findOrThrow, inRange } from '../lookup.js';
import { paginate } from '../pagination.js';
import { params } from '../path-params.js';
import { Reply, type ApiRoute, type HandlerContext, type RouteFamily } from '../route.js';
import { s } from '../schema.js';
import type { Enrollment, SchoolState } from '../store/index.js';

const ENROLLMENT_SOURCES = ['purchase', 'manual', 'membership'] as const;

const Enrollment = s.object(
  {
    id: params.enrollmentId,
    member_id: params.memberId,
    member_email: s.email("The member's email, for convenience."),
    course_id: params.courseId,
    course_title: s.string('The course title, for convenience.'),
    source: s.enumOf(ENROLLMENT_SOURCES, 'How the member got access.'),
    enrolled_at: s.dateTime('When access was granted.'),
    completed_lecture_ids: s.array(params.lectureId, 'Lectures the member has completed.'),
    lectures_total: s.integer('Lectures in the course.', { minimum: 0 }),
    progress_percent: s.integer('Completed lectures as a share of all lectures.', {
      minimum: 0,
      maximum: 100,
      example: 40,
    }),
    last_lecture_id: s.nullable(s.id('The lecture the member opened last.', 'lec_0003')),
    completed_at: s.nullable(s.dateTime('When the member finished the course.')),
  },
  [
    'id',
    'member_id',
    'member_email',
    'course_id',
    'course_title',
    'source',
    'enrolled_at',
    'completed_lecture_ids',
    'lectures_total',
    'progress_percent',
    'last_lecture_id',
    'completed_at',
  ],
  "A member's access to a course, with progress.",
);

const EnrollmentCreate = s.object(
  {
    course_id: params.courseId,
    member_id: params.memberId,
    source: s.enumOf(['manual', 'membership'] as const, 'Why access is given; `manual` by default.'),
  },
  ['course_id', 'member_id'],
  'Who to enrol in which course.',
);

function enrollmentView(state: SchoolState, enrollment: Enrollment) {
  const lecturesTotal = state.lectures.filter((lecture) => lecture.course_id === enrollment.course_id).length;
  const done = enrollment.completed_lecture_ids.length;
  return {
    ...enrollment,
    member_email: state.members.find((member) => member.id === enrollment.member_id)?.email ?? '',
    course_title: state.courses.find((course) => course.id === enrollment.course_id)?.title ?? '',
    lectures_total: lecturesTotal,
    progress_percent: lecturesTotal === 0 ? 0 : Math.min(100, Math.round((done / lecturesTotal) * 100)),
  };
}

function listEnrollments({ store, query }: HandlerContext) {
  const views = store.state.enrollments
    .filter(
      (enrollment) =>
        (query['course_id'] === undefined || enrollment.course_id === query['course_id']) &&
        (query['member_id'] === undefined || enrollment.member_id === query['member_id']) &&
        (query['completed'] === undefined || (enrollment.completed_at !== null) === query['completed']) &&
        inRange(enrollment.enrolled_at, query['enrolled_after'], query['enrolled_before'], store.state.school.timezone),
    )
    .map((enrollment) => enrollmentView(store.state, enrollment))
    .filter(
      (view) => query['progress_below'] === undefined || view.progress_percent < (query['progress_below'] as number),
    );
  return paginate(views, query['page'] as number, query['per_page'] as number);
}

function createEnrollment({ store, body }: HandlerContext) {
  const input = body as { course_id: string; member_id: string; source?: 'manual' | 'membership' };
  const course = findOrThrow(store.state.courses, input.course_id, 'course');
  findOrThrow(store.state.members, input.member_id, 'member');
  const existing = store.state.enrollments.find(
    (item) => item.course_id === input.course_id && item.member_id === input.member_id,
  );
  if (existing) return new Reply(200, enrollmentView(store.state, existing));
  if (course.state === 'archived')
    throw new ApiError('invalid_state_transition', `course ${course.id} is archived and takes no new students`);
  const enrollment: Enrollment = {
    id: store.newId('enr'),
    member_id: input.member_id,
    course_id: input.course_id,
    source: input.source ?? 'manual',
    enrolled_at: store.timestamp(),
    completed_lecture_ids: [],
    last_lecture_id: null,
    completed_at: null,
  };
  store.state.enrollments.push(enrollment);
  return enrollmentView(store.state, enrollment);
}

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/enrollments',
    operationId: 'list_enrollments',
    summary: 'List enrollments and progress',
    description:
      "Lists who is enrolled where, with progress. Filter by `course_id` for a course's students, `completed=false` or `progress_below` for who has not finished.",
    group: 'students',
    scopes: ['students:read'],
    anonymous: 'private',
    list: true,
    query: {
      course_id: params.courseId,
      member_id: params.memberId,
      completed: s.boolean('Only finished (true) or unfinished (false) enrollments.'),
      progress_below: s.integer('Only enrollments whose progress is below this percentage.', {
        minimum: 1,
        maximum: 100,
        example: 50,
      }),
      enrolled_after: s.dateOrDateTime('Enrolled at or after this moment.', '2025-03-01'),
      enrolled_before: s.dateOrDateTime('Enrolled before this moment.', '2025-04-01'),
    },
    response: { status: 200, schema: s.ref('Enrollment'), description: 'A page of enrollments.' },
    handler: listEnrollments,
  },
  {
    method: 'POST',
    path: '/api/v1/enrollments',
    operationId: 'create_enrollment',
    summary: 'Enrol a member in a course',
    description:
      'Gives a member access to a course (manual enrolment). Idempotent: when the member is already enrolled the existing enrolment is answered with 200 and nothing is added. Find the member first with list_members (`email`).',
    group: 'students',
    scopes: ['students:write'],
    anonymous: 'private',
    body: { schema: s.ref('EnrollmentCreate') },
    response: {
      status: 201,
      schema: s.ref('Enrollment'),
      description: 'The new enrolment.',
      also: { status: 200, description: 'The member was already enrolled; the existing enrolment.' },
    },
    conflicts: 'The course is archived.',
    handler: createEnrollment,
  },
  {
    method: 'GET',
    path: '/api/v1/enrollments/:enrollmentId',
    operationId: 'get_enrollment',
    summary: 'Get an enrollment',
    description: 'Gets one enrolment with its progress.',
    group: 'students',
    scopes: ['students:read'],
    anonymous: 'private',
    params: { enrollmentId: params.enrollmentId },
    response: { status: 200, schema: s.ref('Enrollment'), description: 'The enrolment.' },
    handler: ({ store, params: { enrollmentId } }) =>
      enrollmentView(store.state, findOrThrow(store.state.enrollments, enrollmentId!, 'enrollment')),
  },
];

export const studentFamily: RouteFamily = {
  group: 'students',
  description: 'Enrollments of members in courses, and their progress.',
  schemas: { Enrollment, EnrollmentCreate },
  routes,
};
