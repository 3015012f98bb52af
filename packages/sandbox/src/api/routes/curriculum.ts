/** Curriculum: the sections of a course and the lectures inside them. */
import { ApiError } from '../api-error.js';
import { applyPatch, findOrThrow, isStaff } from '../lookup.js';
import { paginate } from '../pagination.js';
import { params } from '../path-params.js';
import type { ApiRoute, HandlerContext, RouteFamily } from '../route.js';
import { partial, s } from '../schema.js';
import { LECTURE_KINDS, type Lecture, type Section } from '../store/index.js';
import { visibleCourse } from './courses.js';

const sectionFields = {
  title: s.string('Section title.', { minLength: 1, maxLength: 200, example: 'Getting started' }),
  position: s.integer('Order within the course, from 1. Defaults to after the last section.', {
    minimum: 1,
    maximum: 1000,
    example: 1,
  }),
};

const Section = s.object(
  { id: params.sectionId, course_id: params.courseId, ...sectionFields },
  ['id', 'course_id', 'title', 'position'],
  'A section (chapter) of a course.',
);

const lectureFields = {
  title: s.string('Lecture title.', { minLength: 1, maxLength: 200, example: 'Mixing your first wash' }),
  position: s.integer('Order within the section, from 1. Defaults to after the last lecture.', {
    minimum: 1,
    maximum: 1000,
  }),
  kind: s.enumOf(LECTURE_KINDS, 'What the lecture is.'),
  content: s.nullable(
    s.string('Text of the lecture, or the video URL. Hidden from visitors unless the lecture is a free preview.', {
      maxLength: 100_000,
    }),
  ),
  duration_seconds: s.nullable(s.integer('Length of a video lecture.', { minimum: 0, maximum: 86_400, example: 540 })),
  attachment_urls: s.array(
    s.uri('Attachment URL, e.g. one returned by upload_file.'),
    'Downloadable attachments. An update replaces the whole list.',
    { maxItems: 20 },
  ),
  is_free_preview: s.boolean('Whether visitors may watch it before buying.'),
};

const Lecture = s.object(
  { id: params.lectureId, course_id: params.courseId, section_id: params.sectionId, ...lectureFields },
  [
    'id',
    'course_id',
    'section_id',
    'title',
    'position',
    'kind',
    'content',
    'duration_seconds',
    'attachment_urls',
    'is_free_preview',
  ],
  'A lecture (lesson) inside a section.',
);

const LectureCreate = s.object(
  { section_id: params.sectionId, ...lectureFields },
  ['section_id', 'title', 'kind'],
  'A new lecture.',
);
const LectureUpdate = partial(
  s.object({ section_id: params.sectionId, ...lectureFields }, []),
  'Lecture fields to change.',
);

function byPosition<T extends { position: number }>(a: T, b: T): number {
  return a.position - b.position;
}

function listSections({ store, params: { courseId }, caller, query }: HandlerContext) {
  visibleCourse(store.state, courseId!, isStaff(caller));
  const sections = store.state.sections.filter((section) => section.course_id === courseId).sort(byPosition);
  return paginate(sections, query['page'] as number, query['per_page'] as number);
}

function createSection({ store, params: { courseId }, body }: HandlerContext) {
  findOrThrow(store.state.courses, courseId!, 'course');
  const input = body as { title: string; position?: number };
  const siblings = store.state.sections.filter((section) => section.course_id === courseId);
  const section: Section = {
    id: store.newId('sec'),
    course_id: courseId!,
    title: input.title,
    position: input.position ?? siblings.length + 1,
  };
  store.state.sections.push(section);
  return section;
}

function updateSection({ store, params: { courseId, sectionId }, body }: HandlerContext) {
  const section = sectionOf(store.state.sections, courseId!, sectionId!);
  applyPatch(section, body as Partial<Section>);
  return section;
}

function sectionOf(sections: readonly Section[], courseId: string, sectionId: string): Section {
  const section = findOrThrow(sections, sectionId, 'section');
  if (section.course_id !== courseId)
    throw new ApiError('not_found', `section ${sectionId} is not part of course ${courseId}`);
  return section;
}

/** Visitors see the outline; lecture content only for free previews. */
function publicLecture(lecture: Lecture): Lecture {
  return lecture.is_free_preview ? lecture : { ...lecture, content: null, attachment_urls: [] };
}

function listLectures({ store, params: { courseId }, caller, query }: HandlerContext) {
  const staff = isStaff(caller);
  visibleCourse(store.state, courseId!, staff);
  const sectionOrder = new Map(store.state.sections.map((section) => [section.id, section.position]));
  const lectures = store.state.lectures
    .filter(
      (lecture) =>
        lecture.course_id === courseId &&
        (query['section_id'] === undefined || lecture.section_id === query['section_id']),
    )
    .sort((a, b) => (sectionOrder.get(a.section_id) ?? 0) - (sectionOrder.get(b.section_id) ?? 0) || byPosition(a, b))
    .map((lecture) => (staff ? lecture : publicLecture(lecture)));
  return paginate(lectures, query['page'] as number, query['per_page'] as number);
}

function getLecture({ store, params: { courseId, lectureId }, caller }: HandlerContext) {
  const staff = isStaff(caller);
  visibleCourse(store.state, courseId!, staff);
  const lecture = lectureOf(store.state.lectures, courseId!, lectureId!);
  return staff ? lecture : publicLecture(lecture);
}

function lectureOf(lectures: readonly Lecture[], courseId: string, lectureId: string): Lecture {
  const lecture = findOrThrow(lectures, lectureId, 'lecture');
  if (lecture.course_id !== courseId)
    throw new ApiError('not_found', `lecture ${lectureId} is not part of course ${courseId}`);
  return lecture;
}

function createLecture({ store, params: { courseId }, body }: HandlerContext) {
  findOrThrow(store.state.courses, courseId!, 'course');
  const input = body as Pick<Lecture, 'section_id' | 'title' | 'kind'> & Partial<Lecture>;
  sectionOf(store.state.sections, courseId!, input.section_id);
  const siblings = store.state.lectures.filter((lecture) => lecture.section_id === input.section_id);
  const lecture: Lecture = {
    id: store.newId('lec'),
    course_id: courseId!,
    section_id: input.section_id,
    title: input.title,
    position: input.position ?? siblings.length + 1,
    kind: input.kind,
    content: input.content ?? null,
    duration_seconds: input.duration_seconds ?? null,
    attachment_urls: input.attachment_urls ?? [],
    is_free_preview: input.is_free_preview ?? false,
  };
  store.state.lectures.push(lecture);
  return lecture;
}

function updateLecture({ store, params: { courseId, lectureId }, body }: HandlerContext) {
  const lecture = lectureOf(store.state.lectures, courseId!, lectureId!);
  const patch = body as Partial<Lecture>;
  if (patch.section_id !== undefined) sectionOf(store.state.sections, courseId!, patch.section_id);
  applyPatch(lecture, patch);
  return lecture;
}

const courseParam = { courseId: params.courseId };

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/courses/:courseId/sections',
    operationId: 'list_sections',
    summary: 'List the sections of a course',
    description: 'Lists the sections (chapters) of a course in order. Visitors see the outline of published courses.',
    group: 'curriculum',
    scopes: ['curriculum:read'],
    anonymous: 'public',
    params: courseParam,
    list: true,
    response: { status: 200, schema: s.ref('Section'), description: 'A page of sections.' },
    handler: listSections,
  },
  {
    method: 'POST',
    path: '/api/v1/courses/:courseId/sections',
    operationId: 'create_section',
    summary: 'Add a section to a course',
    description: 'Adds a section at the end of the course, or at `position`.',
    group: 'curriculum',
    scopes: ['curriculum:write'],
    anonymous: 'private',
    params: courseParam,
    body: { schema: s.object(sectionFields, ['title'], 'A new section.') },
    response: { status: 201, schema: s.ref('Section'), description: 'The created section.' },
    handler: createSection,
  },
  {
    method: 'PATCH',
    path: '/api/v1/courses/:courseId/sections/:sectionId',
    operationId: 'update_section',
    summary: 'Rename or move a section',
    description: 'Changes the title or position of a section.',
    group: 'curriculum',
    scopes: ['curriculum:write'],
    anonymous: 'private',
    params: { ...courseParam, sectionId: params.sectionId },
    body: { schema: partial(s.object(sectionFields, []), 'Section fields to change.') },
    response: { status: 200, schema: s.ref('Section'), description: 'The section as stored.' },
    handler: updateSection,
  },
  {
    method: 'GET',
    path: '/api/v1/courses/:courseId/lectures',
    operationId: 'list_lectures',
    summary: 'List the lectures of a course',
    description:
      'Lists the lectures of a course in curriculum order, optionally of one section. Visitors see titles; content only of free previews.',
    group: 'curriculum',
    scopes: ['curriculum:read'],
    anonymous: 'public',
    params: courseParam,
    list: true,
    query: { section_id: params.sectionId },
    response: { status: 200, schema: s.ref('Lecture'), description: 'A page of lectures.' },
    handler: listLectures,
  },
  {
    method: 'POST',
    path: '/api/v1/courses/:courseId/lectures',
    operationId: 'create_lecture',
    summary: 'Add a lecture to a section',
    description:
      'Adds a lecture to a section of the course. Attach files by uploading them first (upload_file) and passing their URLs.',
    group: 'curriculum',
    scopes: ['curriculum:write'],
    anonymous: 'private',
    params: courseParam,
    body: { schema: s.ref('LectureCreate') },
    response: { status: 201, schema: s.ref('Lecture'), description: 'The created lecture.' },
    handler: createLecture,
  },
  {
    method: 'GET',
    path: '/api/v1/courses/:courseId/lectures/:lectureId',
    operationId: 'get_lecture',
    summary: 'Get a lecture',
    description: 'Gets one lecture of a course.',
    group: 'curriculum',
    scopes: ['curriculum:read'],
    anonymous: 'public',
    params: { ...courseParam, lectureId: params.lectureId },
    response: { status: 200, schema: s.ref('Lecture'), description: 'The lecture.' },
    handler: getLecture,
  },
  {
    method: 'PATCH',
    path: '/api/v1/courses/:courseId/lectures/:lectureId',
    operationId: 'update_lecture',
    summary: 'Update a lecture',
    description:
      'Changes only the given fields of a lecture; `section_id` moves it to another section of the same course.',
    group: 'curriculum',
    scopes: ['curriculum:write'],
    anonymous: 'private',
    params: { ...courseParam, lectureId: params.lectureId },
    body: { schema: s.ref('LectureUpdate') },
    response: { status: 200, schema: s.ref('Lecture'), description: 'The lecture as stored.' },
    handler: updateLecture,
  },
];

export const curriculumFamily: RouteFamily = {
  group: 'curriculum',
  description: 'Sections and lectures of each course. The outline of published courses is public.',
  schemas: { Section, Lecture, LectureCreate, LectureUpdate },
  routes,
};
