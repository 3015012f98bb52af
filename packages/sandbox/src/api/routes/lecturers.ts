/** Lecturers: the people who teach. Their profiles are public, as on any course page. */
import { ApiError } from '../api-error.js';
import { applyPatch, findOrThrow, isStaff } from '../lookup.js';
import { paginate } from '../pagination.js';
import { params } from '../path-params.js';
import type { ApiRoute, HandlerContext, RouteFamily } from '../route.js';
import { partial, s } from '../schema.js';
import type { Lecturer, SchoolState } from '../store/index.js';

const lecturerFields = {
  name: s.string('Full name.', { minLength: 1, maxLength: 200, example: 'Dr. Mei Lin' }),
  email: s.email('Contact email; not shown to visitors.', 'mei.lin@example.com'),
  headline: s.string('One-line title.', { maxLength: 200, example: 'Painter and teacher' }),
  bio: s.string('Biography.', { maxLength: 10_000 }),
  avatar_url: s.nullable(s.uri('Portrait URL, e.g. one returned by upload_file.')),
};

const Lecturer = s.object(
  {
    id: params.lecturerId,
    ...lecturerFields,
    email: s.nullable(lecturerFields.email),
    course_ids: s.array(params.courseId, 'Courses the lecturer teaches.'),
    created_at: s.dateTime('When the profile was created.'),
  },
  ['id', 'name', 'email', 'headline', 'bio', 'avatar_url', 'course_ids', 'created_at'],
  'A lecturer. `email` is null for visitors.',
);

const LecturerCreate = s.object(lecturerFields, ['name', 'email'], 'A new lecturer.');
const LecturerUpdate = partial(s.object(lecturerFields, []), 'Lecturer fields to change.');

function lecturerView(state: SchoolState, lecturer: Lecturer, staff: boolean) {
  const courses = state.courses.filter(
    (course) => course.lecturer_ids.includes(lecturer.id) && (staff || course.state === 'published'),
  );
  return { ...lecturer, email: staff ? lecturer.email : null, course_ids: courses.map((course) => course.id) };
}

function createLecturer({ store, body }: HandlerContext) {
  const input = body as Pick<Lecturer, 'name' | 'email'> & Partial<Lecturer>;
  const taken = store.state.lecturers.find((lecturer) => lecturer.email.toLowerCase() === input.email.toLowerCase());
  if (taken) throw new ApiError('conflict', `lecturer ${taken.id} already has the email ${input.email}`);
  const lecturer: Lecturer = {
    id: store.newId('lct'),
    name: input.name,
    email: input.email,
    headline: input.headline ?? '',
    bio: input.bio ?? '',
    avatar_url: input.avatar_url ?? null,
    created_at: store.timestamp(),
  };
  store.state.lecturers.push(lecturer);
  return lecturerView(store.state, lecturer, true);
}

function updateLecturer({ store, params: { lecturerId }, body }: HandlerContext) {
  const lecturer = findOrThrow(store.state.lecturers, lecturerId!, 'lecturer');
  applyPatch(lecturer, body as Partial<Lecturer>);
  return lecturerView(store.state, lecturer, true);
}

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/lecturers',
    operationId: 'list_lecturers',
    summary: 'List lecturers',
    description: 'Lists lecturers with the courses they teach. Search by name with `q`.',
    group: 'lecturers',
    scopes: ['lecturers:read'],
    anonymous: 'public',
    list: true,
    query: { q: s.string('Case-insensitive search in the name.', { maxLength: 200, example: 'lin' }) },
    response: { status: 200, schema: s.ref('Lecturer'), description: 'A page of lecturers.' },
    handler: ({ store, caller, query }) => {
      const search = typeof query['q'] === 'string' ? query['q'].toLowerCase() : undefined;
      const lecturers = store.state.lecturers
        .filter((lecturer) => search === undefined || lecturer.name.toLowerCase().includes(search))
        .map((lecturer) => lecturerView(store.state, lecturer, isStaff(caller)));
      return paginate(lecturers, query['page'] as number, query['per_page'] as number);
    },
  },
  {
    method: 'POST',
    path: '/api/v1/lecturers',
    operationId: 'create_lecturer',
    summary: 'Create a lecturer',
    description: 'Creates a lecturer profile. Then add them to a course with attach_lecturer_to_course.',
    group: 'lecturers',
    scopes: ['lecturers:write'],
    anonymous: 'private',
    body: { schema: s.ref('LecturerCreate') },
    response: { status: 201, schema: s.ref('Lecturer'), description: 'The created lecturer.' },
    conflicts: 'A lecturer with this email exists.',
    handler: createLecturer,
  },
  {
    method: 'GET',
    path: '/api/v1/lecturers/:lecturerId',
    operationId: 'get_lecturer',
    summary: 'Get a lecturer',
    description: 'Gets one lecturer with the courses they teach.',
    group: 'lecturers',
    scopes: ['lecturers:read'],
    anonymous: 'public',
    params: { lecturerId: params.lecturerId },
    response: { status: 200, schema: s.ref('Lecturer'), description: 'The lecturer.' },
    handler: ({ store, caller, params: { lecturerId } }) =>
      lecturerView(store.state, findOrThrow(store.state.lecturers, lecturerId!, 'lecturer'), isStaff(caller)),
  },
  {
    method: 'PATCH',
    path: '/api/v1/lecturers/:lecturerId',
    operationId: 'update_lecturer',
    summary: 'Update a lecturer',
    description: 'Changes only the given fields of a lecturer profile.',
    group: 'lecturers',
    scopes: ['lecturers:write'],
    anonymous: 'private',
    params: { lecturerId: params.lecturerId },
    body: { schema: s.ref('LecturerUpdate') },
    response: { status: 200, schema: s.ref('Lecturer'), description: 'The lecturer as stored.' },
    handler: updateLecturer,
  },
];

export const lecturerFamily: RouteFamily = {
  group: 'lecturers',
  description: 'Lecturer profiles. Public, without their email.',
  schemas: { Lecturer, LecturerCreate, LecturerUpdate },
  routes,
};
