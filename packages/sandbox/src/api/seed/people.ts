/** Seeds members, and the enrollments that their course purchases gave them, with progress. */
import { allocateId, type Enrollment, type Member, type SchoolState } from '../store/index.js';
import type { SeedClock } from './clock.js';
import type { SeededRandom } from './random.js';

const FIRST = [
  'Jane',
  'Omar',
  'Li',
  'Sofia',
  'Kwame',
  'Hannah',
  'Mateo',
  'Aisha',
  'Noah',
  'Yuki',
  'Elena',
  'Ravi',
  'Chloe',
  'Ivan',
  'Zara',
  'Lucas',
  'Amelia',
  'Diego',
  'Fatima',
  'Ben',
] as const;
const LAST = [
  'Smith',
  'Haddad',
  'Wang',
  'Rossi',
  'Mensah',
  'Müller',
  'García',
  'Khan',
  'Brown',
  'Tanaka',
  'Petrova',
  'Patel',
  'Martin',
  'Novak',
  'Ali',
] as const;
const TAGS = ['newsletter', 'vip', 'b2b', 'alumni', 'trial'] as const;

const MEMBER_COUNT = 200;

export function seedMembers(state: SchoolState, random: SeededRandom, clock: SeedClock): void {
  for (let index = 0; index < MEMBER_COUNT; index++) {
    const first = FIRST[index % FIRST.length]!;
    const last = LAST[Math.floor(index / FIRST.length) % LAST.length]!;
    // Older members first; roughly a tenth joined in the last 30 days.
    const age = index < 180 ? 400 - index * 2.05 : random.int(0, 29) + random.next();
    const member: Member = {
      id: allocateId(state.id_counters, 'mem'),
      email: `${asciiName(first)}.${asciiName(last)}${index}@example.com`,
      name: `${first} ${last}`,
      tags: random.chance(0.3) ? [random.pick(TAGS)] : [],
      created_at: clock.daysAgo(age),
      last_sign_in_at: random.chance(0.8) ? clock.daysAgo(Math.max(0, age - random.int(0, Math.floor(age)))) : null,
    };
    state.members.push(member);
  }
}

/** Gives a member a course (once), with a random amount of progress through its lectures. */
export function enrol(
  state: SchoolState,
  random: SeededRandom,
  clock: SeedClock,
  memberId: string,
  courseId: string,
  at: string,
  source: Enrollment['source'],
): void {
  if (state.enrollments.some((enrollment) => enrollment.member_id === memberId && enrollment.course_id === courseId))
    return;
  const lectures = state.lectures.filter((lecture) => lecture.course_id === courseId);
  const done = random.weighted<number>([
    [0, 2],
    [Math.floor(lectures.length / 3), 3],
    [Math.floor((lectures.length * 2) / 3), 2],
    [lectures.length, 3],
  ]);
  const completed = lectures.slice(0, done).map((lecture) => lecture.id);
  const age = clock.ageInDays(at);
  state.enrollments.push({
    id: allocateId(state.id_counters, 'enr'),
    member_id: memberId,
    course_id: courseId,
    source,
    enrolled_at: at,
    completed_lecture_ids: completed,
    last_lecture_id: completed.at(-1) ?? null,
    completed_at:
      done === lectures.length && lectures.length > 0 ? clock.daysAgo(Math.max(0, age - random.int(3, 40))) : null,
  });
}

/** `García` → `garcia`, `Müller` → `muller`: email local parts stay plain ASCII. */
function asciiName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();
}
