/**
 * The administrator session of `npm run demo`, on its own so that a test runs exactly the same
 * calls and pins how many consent prompts they take: read the school, revenue, orders and courses;
 * create a coupon, a member and an enrolment.
 */

export type ToolResult = {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

export type CallTool = (name: string, args?: Record<string, unknown>) => Promise<ToolResult>;

/** The most consent prompts the session may take with the default consent policy. */
export const DEMO_PROMPT_BUDGET = 4;

/** Runs the session's tasks; `step` titles each one. The first call signs in. */
export async function runAdministratorTasks(
  call: CallTool,
  step: (title: string) => void,
  note: (line: string) => void,
): Promise<void> {
  step('The first call signs in: the reads of the listed toolsets are asked for once, together');
  await call('get_school');

  step('"How did the last 30 days go?" - already granted with the reads: no prompt');
  const to = new Date();
  const from = new Date(to.getTime() - 30 * 24 * 3600 * 1000);
  await call('get_revenue_summary', { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) });
  await call('list_orders', { per_page: 3, state: 'paid' });

  step('A change needs a write permission: asked for at its first need, and the coupon created in the same call');
  await call('create_coupon', { code: 'DEMO20', discount_type: 'percent', percent_off: 20 });

  step('"Enroll jane.doe@example.com in the first course"');
  const courses = await call('list_courses', { per_page: 1 });
  const course = (courses.structuredContent?.['items'] as { id: string }[] | undefined)?.[0];
  const member = await call('create_member', { email: 'jane.doe@example.com', name: 'Jane Doe' });
  const memberId = (member.structuredContent as { id?: string } | undefined)?.id;
  if (course && memberId) {
    await call('create_enrollment', { course_id: course.id, member_id: memberId });
    await call('create_enrollment', { course_id: course.id, member_id: memberId });
    note('   (the second enrolment returns the existing one: no duplicate)');
  }
}
