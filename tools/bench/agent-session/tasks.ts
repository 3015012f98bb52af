/**
 * A school administrator's 15 most frequent tasks, as the played agent works through them: each step says what the agent wants in the task's own words, never a tool name, and the
 * arguments it would write from the task and from what earlier answers told it. Pure.
 */

/** What the agent has learnt so far in a task: ids and values from earlier answers. */
export type Memory = Record<string, unknown>;

/** An answer's structured result, as the agent reads it. */
export type Answer = Record<string, unknown>;

interface AgentStep {
  /** What the agent wants, in the words it would search with ("list subscriptions past due"). */
  readonly want: string;
  readonly args: (memory: Memory) => Record<string, unknown>;
  /** What the agent keeps from the answer for the next steps. */
  readonly keep?: (answer: Answer, memory: Memory) => void;
}

export interface AgentTask {
  readonly title: string;
  readonly steps: readonly AgentStep[];
}

const DAY_MS = 86_400_000;

/**
 * `run` tells sessions apart (codes, e-mail addresses), so that a second session against the same
 * school does the same work instead of meeting what the first one created; `now` fixes the dates.
 */
export function administratorTasks(run: number, now: Date): AgentTask[] {
  const day = (offset: number) => new Date(now.getTime() + offset * DAY_MS).toISOString().slice(0, 10);
  const nextTuesday = nextWeekday(now, 2);
  return [
    {
      title: 'school health',
      steps: [
        { want: 'get school', args: () => ({ fields: ['name', 'timezone', 'currency'] }) },
        { want: 'get revenue summary', args: () => ({ from: day(-30), to: day(0) }) },
        {
          want: 'list orders paid',
          args: () => ({
            state: 'paid',
            created_after: day(-30),
            per_page: 50,
            fields: ['id', 'product_name', 'amount_cents'],
          }),
        },
        { want: 'list members new', args: () => ({ created_after: day(-30), per_page: 1, fields: ['id'] }) },
      ],
    },
    {
      title: 'enrolment',
      steps: [
        {
          want: 'list members by email',
          args: () => ({ email: `jane.doe.${run}@example.com`, fields: ['id', 'email'] }),
        },
        {
          want: 'create member',
          args: () => ({ email: `jane.doe.${run}@example.com`, name: 'Jane Doe' }),
          keep: (answer, memory) => (memory['member'] = answer['id']),
        },
        {
          want: 'list courses',
          args: () => ({ q: 'Watercolour Basics', fields: ['id', 'title'] }),
          keep: keepFirst('course'),
        },
        { want: 'create enrollment', args: (memory) => ({ course_id: memory['course'], member_id: memory['member'] }) },
      ],
    },
    {
      title: 'stuck students',
      steps: [
        {
          want: 'list courses',
          args: () => ({ q: 'Python for Data Analysis', fields: ['id', 'title'] }),
          keep: keepFirst('course'),
        },
        {
          want: 'list lectures',
          args: (memory) => ({ course_id: memory['course'], per_page: 3, fields: ['id', 'title', 'position'] }),
          keep: (answer, memory) => (memory['lesson3'] = itemsOf(answer)[2]?.['id']),
        },
        {
          want: 'list enrollments progress',
          args: (memory) => ({
            course_id: memory['course'],
            completed: false,
            per_page: 50,
            fields: ['member_email', 'progress_percent', 'last_lecture_id'],
          }),
        },
      ],
    },
    {
      title: 'coupon',
      steps: [
        {
          want: 'list courses',
          args: () => ({ q: 'Portrait Photography', fields: ['id', 'title'] }),
          keep: keepFirst('course'),
        },
        {
          want: 'create coupon',
          args: (memory) => ({
            code: `SPRING${run}X25`,
            discount_type: 'percent',
            percent_off: 20,
            course_ids: [memory['course']],
            expires_at: day(4),
            max_redemptions: 100,
          }),
        },
        { want: 'get coupon by code', args: () => ({ code: `SPRING${run}X25` }) },
      ],
    },
    {
      title: 'course draft',
      steps: [
        {
          want: 'create course',
          args: () => ({ title: `Watercolour for beginners ${run}`, description: 'From the outline.' }),
          keep: (answer, memory) => (memory['course'] = answer['id']),
        },
        {
          want: 'create section',
          args: (memory) => ({ course_id: memory['course'], title: 'Getting started' }),
          keep: (answer, memory) => (memory['section'] = answer['id']),
        },
        {
          want: 'create lecture',
          args: (memory) => ({
            course_id: memory['course'],
            section_id: memory['section'],
            title: 'Brushes and paper',
            kind: 'text',
            content: 'Round brushes, cold-pressed paper.',
          }),
        },
        {
          want: 'upload file',
          args: () => ({
            file: { filename: 'cover.png', content_base64: Buffer.from('89504e470d0a1a0a', 'hex').toString('base64') },
          }),
          keep: (answer, memory) => (memory['cover'] = answer['url']),
        },
        {
          want: 'update course cover',
          args: (memory) => ({ course_id: memory['course'], cover_image_url: memory['cover'] }),
        },
      ],
    },
    {
      title: 'course update',
      steps: [
        {
          want: 'list courses',
          args: () => ({ q: 'Morning Yoga Flow', fields: ['id', 'title', 'price_cents'] }),
          keep: keepFirst('course'),
        },
        {
          want: 'update course price dry run',
          args: (memory) => ({ course_id: memory['course'], price_cents: 3400 + run, dry_run: true }),
        },
        { want: 'update course price', args: (memory) => ({ course_id: memory['course'], price_cents: 3400 + run }) },
      ],
    },
    {
      title: 'failed subscriptions',
      steps: [
        {
          want: 'list subscriptions past due',
          args: () => ({
            state: ['past_due', 'incomplete'],
            per_page: 50,
            fields: ['member_email', 'plan_name', 'state'],
          }),
        },
      ],
    },
    {
      title: 'membership plan',
      steps: [
        {
          want: 'list courses published',
          args: () => ({ state: 'published', per_page: 2, fields: ['id', 'title'] }),
          keep: (answer, memory) => (memory['courses'] = itemsOf(answer).map((item) => item['id'])),
        },
        {
          want: 'create membership plan',
          args: (memory) => ({
            name: `Monthly ${run}`,
            interval: 'month',
            price_cents: 1900,
            course_ids: memory['courses'],
          }),
        },
      ],
    },
    {
      title: 'webinar',
      steps: [
        {
          want: 'create event',
          args: () => ({
            title: `Q&A webinar ${run}`,
            starts_at: `${nextTuesday}T17:00:00Z`,
            ends_at: `${nextTuesday}T18:00:00Z`,
            capacity: 50,
            location_type: 'online',
          }),
          keep: (answer, memory) => (memory['event'] = answer['id']),
        },
        { want: 'create event ticket', args: (memory) => ({ event_id: memory['event'], name: 'Seat', quantity: 50 }) },
        { want: 'list event attendees', args: (memory) => ({ event_id: memory['event'] }) },
      ],
    },
    {
      title: 'blog post',
      steps: [
        {
          want: 'create post',
          args: () => ({
            title: `A new course: Watercolour for beginners ${run}`,
            body: 'Enrolment is open.',
            state: 'published',
          }),
        },
      ],
    },
    {
      title: 'lecturer',
      steps: [
        {
          want: 'create lecturer',
          args: () => ({ name: 'Dr. Lin', email: `dr.lin.${run}@example.com` }),
          keep: (answer, memory) => (memory['lecturer'] = answer['id']),
        },
        {
          want: 'list courses',
          args: () => ({ q: 'UX Design Foundations', fields: ['id'] }),
          keep: keepFirst('course'),
        },
        {
          want: 'attach lecturer to course',
          args: (memory) => ({ course_id: memory['course'], lecturer_id: memory['lecturer'] }),
        },
      ],
    },
    {
      title: 'appearance and page deploy',
      steps: [
        { want: 'update appearance', args: () => ({ primary_color: '#1a73e8' }) },
        {
          want: 'create page',
          args: () => ({ title: `Spring sale ${run}`, slug: `spring-sale-${run}`, html: '<h1>Spring sale</h1>' }),
          keep: (answer, memory) => (memory['page'] = answer['id']),
        },
        { want: 'deploy page', args: (memory) => ({ page_id: memory['page'], message: 'First version' }) },
        { want: 'list page deployments', args: (memory) => ({ page_id: memory['page'] }) },
      ],
    },
    {
      title: 'comments',
      steps: [
        {
          want: 'list comments reviews',
          args: () => ({ kind: 'review', max_rating: 2, per_page: 20, fields: ['course_id', 'rating', 'body'] }),
        },
      ],
    },
    {
      title: 'form export',
      steps: [
        { want: 'list forms', args: () => ({ fields: ['id', 'title'] }), keep: keepFirst('form') },
        {
          want: 'list form submissions',
          args: (memory) => ({ form_id: memory['form'], per_page: 50, fields: ['email', 'submitted_at'] }),
        },
      ],
    },
    {
      title: 'who am I',
      steps: [{ want: 'who am i', args: () => ({}) }],
    },
  ];
}

function itemsOf(answer: Answer): Answer[] {
  const items = answer['items'];
  return Array.isArray(items) ? (items as Answer[]) : [];
}

function keepFirst(key: string): (answer: Answer, memory: Memory) => void {
  return (answer, memory) => {
    memory[key] = itemsOf(answer)[0]?.['id'];
  };
}

/** The date of the next `weekday` (0 Sunday … 6 Saturday) after `now`, in UTC. */
function nextWeekday(now: Date, weekday: number): string {
  const ahead = (weekday - now.getUTCDay() + 7) % 7 || 7;
  return new Date(now.getTime() + ahead * DAY_MS).toISOString().slice(0, 10);
}
