/**
 * Which tools a server lists, decided once from the user's choice and the catalogue. Pure.
 *
 * The default is chosen for hosts as they are: Cursor reads only the first 40 tools, every host
 * pays context for each definition, and some ignore `tools/list_changed`. So by default the server
 * lists the operations behind the administrator's most frequent tasks as direct tools, compactly,
 * and reaches every other operation through the discovery tools over the same catalogue.
 */
import type { Operation, ToolCatalogue } from '../openapi/index.js';

export type ToolsetChoice =
  | { readonly mode: 'default' }
  | { readonly mode: 'dynamic' }
  | { readonly mode: 'toolsets'; readonly toolsets: readonly string[] | 'all' };

export interface ToolPlan {
  /** Operations listed as their own tools, in catalogue order. */
  readonly direct: readonly Operation[];
  /** Whether the discovery tools (search, describe, call) are listed. */
  readonly discovery: boolean;
  /**
   * List the direct tools compactly (`compact-listing.ts`): no output schemas, input schemas
   * without the checks the server runs anyway, annotations without their default values. The
   * default list only; a user who names toolsets gets every tool in full.
   */
  readonly compactListing?: boolean;
}

/**
 * The operations that 11 of the administrator's 15 most frequent tasks need (listed in
 * tools/bench/agent-session/tasks.ts; `npm run bench -- --only agent` plays them): school health, enrolment, stuck students,
 * coupon, course update, failed subscriptions, membership plan, blog post, comments, form export
 * and who am I (an account tool). Course drafting, webinars, lecturers and pages are reached
 * through discovery: listing them too would take the default list over its 6,000-token budget.
 */
export const DEFAULT_TOOLS: readonly string[] = [
  'get_school',
  'get_revenue_summary',
  'list_orders',
  'list_members',
  'create_member',
  'list_courses',
  'update_course',
  'list_lectures',
  'list_enrollments',
  'create_enrollment',
  'create_coupon',
  'get_coupon_by_code',
  'list_subscriptions',
  'create_membership_plan',
  'create_post',
  'list_comments',
  'list_forms',
  'list_form_submissions',
];

/** For a document that does not name most of `DEFAULT_TOOLS`: the scope groups behind the same tasks. */
export const DEFAULT_TOOLSETS: readonly string[] = [
  'school',
  'courses',
  'members',
  'students',
  'orders',
  'analytics',
  'coupons',
];

/** Hosts that cap tool counts read the first 40; the server's own tools count too. */
export const DIRECT_TOOL_BUDGET = 33;

/**
 * `catalogue` is the user's selection already (read-only, `--tools`, `--exclude-tools` applied).
 * An explicit `--tools` list means "exactly these", so discovery is not added then.
 */
export function planTools(catalogue: ToolCatalogue, choice: ToolsetChoice, exactTools: boolean): ToolPlan {
  if (exactTools) return { direct: catalogue.operations, discovery: false };
  switch (choice.mode) {
    case 'dynamic':
      return { direct: [], discovery: true };
    case 'toolsets':
      return { direct: catalogue.operations, discovery: false };
    case 'default': {
      if (catalogue.operations.length <= DIRECT_TOOL_BUDGET)
        return { direct: catalogue.operations, discovery: false, compactListing: true };
      const byTask = catalogue.operations.filter((operation) => DEFAULT_TOOLS.includes(operation.toolName));
      const preferred =
        byTask.length * 2 >= DEFAULT_TOOLS.length
          ? byTask
          : catalogue.operations.filter((operation) => DEFAULT_TOOLSETS.includes(operation.toolset));
      return { direct: preferred.slice(0, DIRECT_TOOL_BUDGET), discovery: true, compactListing: true };
    }
  }
}
