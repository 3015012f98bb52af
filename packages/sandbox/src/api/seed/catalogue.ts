/** Seeds lecturers and courses with their sections and lectures. */
import { slugify } from '../lookup.js';
import {
  allocateId,
  type Course,
  type CourseState,
  type Lecture,
  type Lecturer,
  type SchoolState,
  type Section,
} from '../store/index.js';
import type { SeedClock } from './clock.js';
import type { SeededRandom } from './random.js';

const LECTURERS = [
  ['Mei Lin', 'Painter and illustrator'],
  ['Tomás Herrera', 'Photographer, 15 years in the field'],
  ['Amara Okafor', 'Data scientist and teacher'],
  ['Jonas Becker', 'Product designer'],
  ['Priya Raman', 'Yoga and breath-work coach'],
  ['Lucía Ortega', 'Spanish teacher and translator'],
] as const;

const COURSES: ReadonlyArray<readonly [string, string, CourseState, number]> = [
  ['Watercolour Basics', 'Paint your first landscape in a weekend', 'published', 4900],
  ['Portrait Photography', 'Light, lenses and people', 'published', 7900],
  ['Python for Data Analysis', 'From spreadsheets to pandas', 'published', 9900],
  ['UX Design Foundations', 'Research, wireframes and testing', 'published', 8900],
  ['Morning Yoga Flow', 'Twenty minutes a day', 'published', 2900],
  ['Spanish for Travellers', 'Order, ask and chat with confidence', 'published', 3900],
  ['Advanced Watercolour Techniques', 'Wet-in-wet, glazing and texture', 'published', 6900],
  ['Machine Learning in Practice', 'Models that ship', 'draft', 12900],
  ['Street Photography Walks', 'Seeing stories in the city', 'draft', 5900],
  ['Intro to Sketching (2022 edition)', 'Replaced by Watercolour Basics', 'archived', 1900],
];

const SECTION_TITLES = ['Getting started', 'Core techniques', 'Practice project', 'Going further', 'Wrap-up'] as const;
const LECTURE_TITLES = [
  'Welcome',
  'Tools you need',
  'First exercise',
  'Common mistakes',
  'Worked example',
  'Your turn',
  'Review',
  'Next steps',
] as const;
const LECTURE_KINDS = ['video', 'video', 'video', 'text', 'quiz', 'file'] as const;

export function seedCatalogue(state: SchoolState, random: SeededRandom, clock: SeedClock): void {
  const id = (prefix: string) => allocateId(state.id_counters, prefix);
  state.lecturers = LECTURERS.map(([name, headline], index): Lecturer => ({
    id: id('lct'),
    name,
    email: `${slugify(name).replace(/-/g, '.')}@lecturers.sandbox-academy.test`,
    headline,
    bio: `${name} has taught online for ${3 + index} years.`,
    avatar_url: null,
    created_at: clock.daysAgo(700 - index * 20),
  }));
  for (const [index, [title, subtitle, courseState, price]] of COURSES.entries()) {
    const created = clock.daysAgo(600 - index * 45);
    const course: Course = {
      id: id('crs'),
      title,
      slug: slugify(title),
      subtitle,
      description: `${subtitle}. A self-paced course with exercises and feedback.`,
      state: courseState,
      price_cents: price,
      currency: 'USD',
      cover_image_url: `https://cdn.sandbox-academy.test/covers/${slugify(title)}.png`,
      lecturer_ids: [state.lecturers[index % state.lecturers.length]!.id],
      created_at: created,
      updated_at: created,
      published_at: courseState === 'draft' ? null : clock.daysAgo(590 - index * 45),
    };
    state.courses.push(course);
    seedCurriculum(state, course, random, id);
  }
}

function seedCurriculum(
  state: SchoolState,
  course: Course,
  random: SeededRandom,
  id: (prefix: string) => string,
): void {
  const sectionCount = random.int(3, 5);
  for (let s = 0; s < sectionCount; s++) {
    const section: Section = { id: id('sec'), course_id: course.id, title: SECTION_TITLES[s]!, position: s + 1 };
    state.sections.push(section);
    const lectureCount = random.int(2, 4);
    for (let l = 0; l < lectureCount; l++) {
      const kind = random.pick(LECTURE_KINDS);
      const lecture: Lecture = {
        id: id('lec'),
        course_id: course.id,
        section_id: section.id,
        title: `${LECTURE_TITLES[(s * 2 + l) % LECTURE_TITLES.length]} (${section.title.toLowerCase()})`,
        position: l + 1,
        kind,
        content:
          kind === 'video'
            ? `https://video.sandbox-academy.test/${course.slug}/${s + 1}-${l + 1}.mp4`
            : `Notes for part ${s + 1}.${l + 1}.`,
        duration_seconds: kind === 'video' ? random.int(180, 1500) : null,
        attachment_urls: [],
        is_free_preview: s === 0 && l === 0,
      };
      state.lectures.push(lecture);
    }
  }
}
