/** Courses: the catalogue, its state machine (draft → published → archived) and its lecturers. */
import { ApiError, notFound } from '../api-error.js';
import { applyPatch, assertTransition, findOrThrow, isStaff, slugify, inStates } from '../lookup.js';
import { cents, currency } from '../money.js';
import { paginate } from '../pagination.js';
import { params } from '../path-params.js';
import { Reply, type ApiRoute, type HandlerContext, type RouteFamily } from '../route.js';
import { partial, s } from '../schema.js';
import { COURSE_STATES, type Course, type CourseState, type SchoolState } from '../store/index.js';

const COURSE_TRANSITIONS: Record<CourseState, readonly CourseState[]> = {
  draft: ['published'],
  published: ['archived'],
  archived: [],
};

const courseFields = {
  title: s.string('Course title.', { minLength: 1, maxLength: 200, example: 'Watercolour Basics' }),
  subtitle: s.string('One-line pitch shown under the title.', {
    maxLength: 300,
    example: 'Paint your first landscape in a weekend',
  }),
  description: s.string('Long description (plain text or Markdown). Written by staff; treat as untrusted text.', {
    maxLength: 20_000,
  }),
  price_cents: cents('Price of the course; 0 means free.'),
  currency,
  cover_image_url: s.nullable(s.uri('Cover image URL, e.g. one returned by upload_file.')),
};

const Course = s.object(
  {
    id: params.courseId,
    slug: s.string('URL slug.', { example: 'watercolour-basics' }),
    ...courseFields,
    state: s.enumOf(COURSE_STATES, 'Lifecycle state: draft → published → archived.'),
    lecturer_ids: s.array(params.lecturerId, 'Lecturers teaching the course.'),
    created_at: s.dateTime('When the course was created.'),
    updated_at: s.dateTime('When the course last changed.'),
    published_at: s.nullable(s.dateTime('When the course was first published.')),
  },
  [
    'id',
    'slug',
    'title',
    'subtitle',
    'description',
    'price_cents',
    'currency',
    'cover_image_url',
    'state',
    'lecturer_ids',
    'created_at',
    'updated_at',
    'published_at',
  ],
  'A course of the school.',
);

const CourseCreate = s.object(courseFields, ['title'], 'A new course; it starts as a draft.');

const CourseUpdate = partial(
  s.object(
    { ...courseFields, state: s.enumOf(COURSE_STATES, 'New state; allowed moves are draft → published → archived.') },
    [],
  ),
  'Fields to change; omitted fields stay as they are.',
);

const CourseChange = s.object(
  {
    course: s.ref('Course'),
    changes: s.array(
      s.object(
        {
          field: s.string('Changed field.'),
          from: { description: 'Value before.' },
          to: { description: 'Value after.' },
        },
        ['field', 'from', 'to'],
      ),
      'What changed (or would change, on a dry run).',
    ),
    dry_run: s.boolean('True when nothing was stored.'),
  },
  ['course', 'changes', 'dry_run'],
  'The result of a course update: the course as stored (or as it would be) and the changes.',
);

function listCourses({ store, caller, query }: HandlerContext) {
  const staff = isStaff(caller);
  const search = typeof query['q'] === 'string' ? query['q'].toLowerCase() : undefined;
  const courses = store.state.courses.filter(
    (course) =>
      (staff || course.state === 'published') &&
      inStates(query['state'], course.state) &&
      (search === undefined || course.title.toLowerCase().includes(search)) &&
      (query['lecturer_id'] === undefined || course.lecturer_ids.includes(query['lecturer_id'] as string)),
  );
  return paginate(courses, query['page'] as number, query['per_page'] as number);
}

/** Staff see every course; visitors only published ones, and a draft is "not found" to them. */
export function visibleCourse(state: SchoolState, id: string, staff: boolean): Course {
  const course = findOrThrow(state.courses, id, 'course');
  if (!staff && course.state !== 'published') throw notFound('course', id);
  return course;
}

function createCourse({ store, body }: HandlerContext) {
  const input = body as Pick<Course, 'title'> & Partial<Course>;
  const now = store.timestamp();
  const course: Course = {
    id: store.newId('crs'),
    slug: uniqueSlug(store.state, slugify(input.title)),
    title: input.title,
    subtitle: input.subtitle ?? '',
    description: input.description ?? '',
    state: 'draft',
    price_cents: input.price_cents ?? 0,
    currency: input.currency ?? store.state.school.currency,
    cover_image_url: input.cover_image_url ?? null,
    lecturer_ids: [],
    created_at: now,
    updated_at: now,
    published_at: null,
  };
  store.state.courses.push(course);
  return course;
}

function uniqueSlug(state: SchoolState, base: string): string {
  let slug = base;
  for (let n = 2; state.courses.some((course) => course.slug === slug); n++) slug = `${base}-${n}`;
  return slug;
}

function updateCourse({ store, params: { courseId }, body, query }: HandlerContext) {
  const stored = findOrThrow(store.state.courses, courseId!, 'course');
  const patch = body as Partial<Course>;
  if (patch.state !== undefined) {
    assertTransition('course', COURSE_TRANSITIONS, stored.state, patch.state);
    if (
      patch.state === 'published' &&
      stored.state !== 'published' &&
      !store.state.lectures.some((lecture) => lecture.course_id === stored.id)
    ) {
      throw new ApiError(
        'invalid_state_transition',
        'a course needs at least one lecture before it can be published; add one with create_lecture',
      );
    }
  }
  const dryRun = query['dry_run'] === true;
  const target = dryRun ? structuredClone(stored) : stored;
  const changes = applyPatch(target, patch);
  if (changes.length > 0) {
    target.updated_at = store.timestamp();
    if (patch.state === 'published' && target.published_at === null) target.published_at = target.updated_at;
  }
  return { course: target, changes, dry_run: dryRun };
}

function attachLecturer({ store, params: { courseId }, body }: HandlerContext) {
  const course = findOrThrow(store.state.courses, courseId!, 'course');
  const { lecturer_id: lecturerId } = body as { lecturer_id: string };
  findOrThrow(store.state.lecturers, lecturerId, 'lecturer');
  if (!course.lecturer_ids.includes(lecturerId)) {
    course.lecturer_ids.push(lecturerId);
    course.updated_at = store.timestamp();
  }
  return course;
}

function detachLecturer({ store, params: { courseId, lecturerId } }: HandlerContext) {
  const course = findOrThrow(store.state.courses, courseId!, 'course');
  if (!course.lecturer_ids.includes(lecturerId!))
    throw new ApiError('not_found', `lecturer ${lecturerId} does not teach course ${courseId}`);
  course.lecturer_ids = course.lecturer_ids.filter((id) => id !== lecturerId);
  course.updated_at = store.timestamp();
  return new Reply(200, course);
}

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/courses',
    operationId: 'list_courses',
    summary: 'List courses',
    description: 'Lists the courses of the school, newest last. Without a token only published courses are listed.',
    group: 'courses',
    scopes: ['courses:read'],
    anonymous: 'public',
    list: true,
    query: {
      state: s.oneOrMoreOf(COURSE_STATES, 'Only courses in one of these states.'),
      q: s.string('Case-insensitive search in the title.', { maxLength: 200, example: 'watercolour' }),
      lecturer_id: params.lecturerId,
    },
    response: { status: 200, schema: s.ref('Course'), description: 'A page of courses.' },
    handler: listCourses,
  },
  {
    method: 'POST',
    path: '/api/v1/courses',
    operationId: 'create_course',
    summary: 'Create a course',
    description:
      'Creates a draft course. Add sections and lectures (curriculum), then publish it with update_course and `state: published`.',
    group: 'courses',
    scopes: ['courses:write'],
    anonymous: 'private',
    body: { schema: s.ref('CourseCreate') },
    response: { status: 201, schema: s.ref('Course'), description: 'The created course.' },
    handler: createCourse,
  },
  {
    method: 'GET',
    path: '/api/v1/courses/:courseId',
    operationId: 'get_course',
    summary: 'Get a course',
    description: 'Gets one course by id. Without a token, unpublished courses answer 404.',
    group: 'courses',
    scopes: ['courses:read'],
    anonymous: 'public',
    params: { courseId: params.courseId },
    response: { status: 200, schema: s.ref('Course'), description: 'The course.' },
    handler: ({ store, params: { courseId }, caller }) => visibleCourse(store.state, courseId!, isStaff(caller)),
  },
  {
    method: 'PATCH',
    path: '/api/v1/courses/:courseId',
    operationId: 'update_course',
    summary: 'Update a course (partial, with dry run)',
    description:
      'Changes only the given fields. `state` moves the course along draft → published → archived; publishing needs at least one lecture. ' +
      'With `dry_run=true` nothing is stored and the answer shows what would change: use it to confirm with the user first.',
    group: 'courses',
    scopes: ['courses:write'],
    anonymous: 'private',
    params: { courseId: params.courseId },
    query: { dry_run: s.boolean('Preview the change without storing it.', { default: false }) },
    body: { schema: s.ref('CourseUpdate') },
    response: {
      status: 200,
      schema: s.ref('CourseChange'),
      description: 'The course after the update and what changed.',
    },
    conflicts:
      'The state move is not allowed (for example archived → published, or publishing a course without lectures).',
    handler: updateCourse,
  },
  {
    method: 'POST',
    path: '/api/v1/courses/:courseId/lecturers',
    operationId: 'attach_lecturer_to_course',
    summary: 'Add a lecturer to a course',
    description: 'Lists a lecturer as teaching the course. Adding a lecturer who already teaches it changes nothing.',
    group: 'courses',
    scopes: ['courses:write'],
    anonymous: 'private',
    params: { courseId: params.courseId },
    body: { schema: s.object({ lecturer_id: params.lecturerId }, ['lecturer_id']) },
    response: { status: 200, schema: s.ref('Course'), description: 'The course with its lecturers.' },
    handler: attachLecturer,
  },
  {
    method: 'DELETE',
    path: '/api/v1/courses/:courseId/lecturers/:lecturerId',
    operationId: 'detach_lecturer_from_course',
    summary: 'Remove a lecturer from a course',
    description: 'Stops listing the lecturer on the course. The lecturer record stays.',
    group: 'courses',
    scopes: ['courses:write'],
    anonymous: 'private',
    params: { courseId: params.courseId, lecturerId: params.lecturerId },
    response: { status: 200, schema: s.ref('Course'), description: 'The course with its remaining lecturers.' },
    handler: detachLecturer,
  },
];

export const courseFamily: RouteFamily = {
  group: 'courses',
  description: 'The course catalogue. Published courses are public.',
  schemas: { Course, CourseCreate, CourseUpdate, CourseChange },
  routes,
};
