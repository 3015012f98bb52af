/**
 * What converting one tool schema may spend (API-11): the depth, nodes and JSON bytes of an
 * input or output schema, and the meter the conversions that make up one schema share, so that
 * references fanning out cost neither memory nor time past the budget. Pure.
 * @see SECURITY.md API-11
 */

export interface SchemaBudget {
  readonly maxDepth: number;
  readonly maxNodes: number;
  /** Characters of JSON the conversions sharing one meter may produce. */
  readonly maxBytes: number;
}

/**
 * What the conversions of one tool schema have spent together: an input schema is one conversion
 * per parameter and one for the body, and they share the schema's budget.
 */
export interface SchemaMeter {
  nodes: number;
  bytes: number;
  /** Set once `maxBytes` is passed: the conversions since then returned incomplete schemas. */
  overBudget: boolean;
}

export function newSchemaMeter(): SchemaMeter {
  return { nodes: 0, bytes: 0, overBudget: false };
}

/**
 * One tool schema (input or output) as JSON. The largest of the GitHub REST description's 623
 * tools needs 31 kB for both; a tool over it is listed with a simplified schema (API-11).
 */
export const MAX_TOOL_SCHEMA_BYTES = 64 * 1024;

export const INPUT_BUDGET: SchemaBudget = { maxDepth: 12, maxNodes: 3_000, maxBytes: MAX_TOOL_SCHEMA_BYTES };
export const OUTPUT_BUDGET: SchemaBudget = { maxDepth: 8, maxNodes: 1_000, maxBytes: MAX_TOOL_SCHEMA_BYTES };
