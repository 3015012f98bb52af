/**
 * Twelve more administrator tasks, written after the default tool list was chosen and without
 * looking at the tools: they measure discovery on work the list was not made for. Same form as
 * `tasks.ts`: each step says what the agent wants in its own words, never a tool name. Pure.
 */
import type { AgentTask, Answer, Memory } from './tasks.js';

const DAY_MS = 86_400_000;

/** A tiny PDF, enough for the school to store it as a file. */
const PDF_BASE64 = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
const PNG_BASE64 = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');

/** `run` and `now` as in `administratorTasks`. */
export function unseenAdministratorTasks(run: number, now: Date): AgentTask[] {
  const day = (offset: number) => new Date(now.getTime() + offset * DAY_MS).toISOString().slice(0, 10);
  return [
    {
      title: 'vip tag',
      steps: [
        {
          want: 'add a new student',
          args: () => ({ email: `sam.lee.${run}@example.com`, name: 'Sam Lee' }),
          keep: (answer, memory) => (memory['member'] = answer['id']),
        },
        { want: 'add a tag to a member', args: (memory) => ({ member_id: memory['member'], tags: ['vip'] }) },
      ],
    },
    {
      title: 'coupon switch-off',
      steps: [
        {
          want: 'create a discount code',
          args: () => ({ code: `AUTUMN${run}X10`, discount_type: 'percent', percent_off: 10 }),
        },
        {
          want: 'look up a coupon by its code',
          args: () => ({ code: `AUTUMN${run}X10` }),
          keep: (answer, memory) => (memory['coupon'] = answer['id']),
        },
        { want: 'turn off the coupon', args: (memory) => ({ coupon_id: memory['coupon'], active: false }) },
      ],
    },
    {
      title: 'purchase question',
      steps: [
        {
          want: 'list recent orders',
          args: () => ({ per_page: 1, fields: ['id', 'member_id'] }),
          keep: (answer, memory) => {
            memory['order'] = itemsOf(answer)[0]?.['id'];
            memory['member'] = itemsOf(answer)[0]?.['member_id'];
          },
        },
        { want: 'show one order in detail', args: (memory) => ({ order_id: memory['order'] }) },
        { want: 'look up the customer who bought it', args: (memory) => ({ member_id: memory['member'] }) },
      ],
    },
    {
      title: 'reschedule webinar',
      steps: [
        {
          want: 'list upcoming events',
          args: () => ({ starts_after: day(0), per_page: 1, fields: ['id', 'title', 'starts_at'] }),
          keep: keepFirst('event'),
        },
        {
          want: 'reschedule the event',
          args: (memory) => ({
            event_id: memory['event'],
            starts_at: `${day(14)}T17:00:00Z`,
            ends_at: `${day(14)}T18:00:00Z`,
          }),
        },
        { want: 'who registered for the event', args: (memory) => ({ event_id: memory['event'], fields: ['email'] }) },
      ],
    },
    {
      title: 'teacher profile',
      steps: [
        {
          want: 'list all teachers',
          args: () => ({ per_page: 1, fields: ['id', 'name'] }),
          keep: keepFirst('lecturer'),
        },
        {
          want: 'change the teacher headline',
          args: (memory) => ({ lecturer_id: memory['lecturer'], headline: `Painter and teacher ${run}` }),
        },
      ],
    },
    {
      title: 'course outline',
      steps: [
        {
          want: 'find the course',
          args: () => ({ q: 'Python for Data Analysis', fields: ['id', 'title'] }),
          keep: keepFirst('course'),
        },
        {
          want: 'show the chapters of the course',
          args: (memory) => ({ course_id: memory['course'], fields: ['id', 'title'] }),
          keep: keepFirst('section'),
        },
        {
          want: 'rename a chapter',
          args: (memory) => ({
            course_id: memory['course'],
            section_id: memory['section'],
            title: `Start here ${run}`,
          }),
        },
      ],
    },
    {
      title: 'digital product',
      steps: [
        {
          want: 'upload a PDF',
          args: () => ({ file: { filename: 'workbook.pdf', content_base64: PDF_BASE64 } }),
          keep: (answer, memory) => (memory['file'] = answer['url']),
        },
        {
          want: 'create a downloadable product',
          args: (memory) => ({ title: `Colour workbook ${run}`, price_cents: 900, file_url: memory['file'] }),
          keep: (answer, memory) => (memory['product'] = answer['id']),
        },
        { want: 'put the product on sale', args: (memory) => ({ product_id: memory['product'], state: 'published' }) },
      ],
    },
    {
      title: 'monthly numbers',
      steps: [
        { want: 'how much money did we make this month', args: () => ({ from: day(-30), to: day(0) }) },
        { want: 'how many students enrolled this month', args: () => ({ from: day(-30), to: day(0) }) },
      ],
    },
    {
      title: 'cancel membership',
      steps: [
        {
          want: 'list active subscriptions',
          args: () => ({ state: ['active'], per_page: 1, fields: ['id', 'member_email'] }),
          keep: keepFirst('subscription'),
        },
        { want: 'cancel the subscription', args: (memory) => ({ subscription_id: memory['subscription'] }) },
      ],
    },
    {
      title: 'page rollback',
      steps: [
        { want: 'list the website pages', args: () => ({ fields: ['id', 'title'] }), keep: keepFirst('page') },
        {
          want: 'version history of the page',
          args: (memory) => ({ page_id: memory['page'] }),
          keep: (answer, memory) =>
            (memory['earlier'] = itemsOf(answer).find((item) => item['status'] !== 'live')?.['id']),
        },
        {
          want: 'restore the previous version of the page',
          args: (memory) => ({ page_id: memory['page'], deployment_id: memory['earlier'] }),
        },
      ],
    },
    {
      title: 'plan contents',
      steps: [
        { want: 'list membership plans', args: () => ({ fields: ['id', 'name'] }), keep: keepFirst('plan') },
        {
          want: 'list courses published',
          args: () => ({ state: 'published', per_page: 1, fields: ['id'] }),
          keep: keepFirst('course'),
        },
        {
          want: 'include the course in the plan',
          args: (memory) => ({ plan_id: memory['plan'], course_id: memory['course'] }),
        },
      ],
    },
    {
      title: 'school settings and logo',
      steps: [
        { want: 'change the school support email', args: () => ({ support_email: `help${run}@sandbox-academy.test` }) },
        {
          want: 'upload an image',
          args: () => ({ file: { filename: 'logo.png', content_base64: PNG_BASE64 } }),
          keep: (answer, memory) => (memory['logo'] = answer['url']),
        },
        { want: 'set the site logo', args: (memory) => ({ logo_url: memory['logo'] }) },
      ],
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
