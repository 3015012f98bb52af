/**
 * Which tools a server lists, decided once from the user's choice and the catalogue. Pure.
 *
 * The default is chosen for hosts as they are: Cursor reads only the first 40 tools, every host
 * pays context for each definition, and some ignore `tools/list_changed`. So by default the server
 * lists the toolsets a school administrator uses most as direct tools, and reaches every other
 * operation through three discovery tools (search, describe, call) over the same catalogue.
 */
import type { Operation, ToolCatalog } from '../openapi/index.js';

export type ToolsetChoice =
  | { readonly mode: 'default' }
  | { readonly mode: 'dynamic' }
  | { readonly mode: 'toolsets'; readonly toolsets: readonly string[] | 'all' };

export interface ToolPlan {
  /** Operations listed as their own tools, in catalogue order. */
  readonly direct: readonly Operation[];
  /** Whether the discovery tools (search, describe, call) are listed. */
  readonly discovery: boolean;
}

/** The scope groups behind the most frequent administrator tasks (school-domain.md §3.1). */
export const DEFAULT_TOOLSETS: readonly string[] = ['school', 'courses', 'members', 'students', 'orders', 'analytics', 'coupons'];

/** Hosts that cap tool counts read the first 40; the server's own tools count too. */
export const DIRECT_TOOL_BUDGET = 33;

/**
 * `catalog` is the user's selection already (read-only, `--tools`, `--exclude-tools` applied).
 * An explicit `--tools` list means "exactly these", so discovery is not added then.
 */
export function planTools(catalog: ToolCatalog, choice: ToolsetChoice, exactTools: boolean): ToolPlan {
  if (exactTools) return { direct: catalog.operations, discovery: false };
  switch (choice.mode) {
    case 'dynamic':
      return { direct: [], discovery: true };
    case 'toolsets':
      return { direct: catalog.operations, discovery: false };
    case 'default': {
      if (catalog.operations.length <= DIRECT_TOOL_BUDGET) return { direct: catalog.operations, discovery: false };
      const preferred = catalog.operations.filter((operation) => DEFAULT_TOOLSETS.includes(operation.toolset));
      return { direct: preferred.slice(0, DIRECT_TOOL_BUDGET), discovery: true };
    }
  }
}
