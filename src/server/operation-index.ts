/**
 * The operations that are not tools of their own, named in the server's instructions with their
 * arguments, so that a model can call one it recognises without a search first. Hosts load the
 * instructions at the start of every conversation, and some load nothing else until a tool is
 * picked (deferred tool schemas), so the index is what tells a model those operations exist.
 *
 * Only generated names appear: tool names (`^[a-zA-Z0-9_-]+$`) and argument names
 * (`^[a-zA-Z0-9_.-]{1,64}$`, `openapi/input-schema.ts`), never a title or description, so no
 * document text reaches the instructions through it. Pure.
 */
import type { JsonSchema, Operation } from '../openapi/index.js';

/**
 * Characters the index may take, about a thousand tokens: room for the sandbox school's 57
 * unlisted operations with every argument. A document too large for it gets the names alone, and
 * one too large for those gets no index (the first line of the instructions names its toolsets).
 */
const OPERATION_INDEX_BUDGET = 4_000;

/** Arguments beyond this many are left to search_operations and describe_operation. */
const MAX_SHOWN_ARGUMENTS = 12;

/** The index's lines, reads then changes; none when even the names exceed `budget`. */
export function operationIndexLines(unlisted: readonly Operation[], budget: number = OPERATION_INDEX_BUDGET): string[] {
  if (unlisted.length === 0) return [];
  for (const entry of [signature, (operation: Operation) => operation.toolName]) {
    const lines = indexLines(unlisted, entry);
    if (lines.join('\n').length <= budget) return lines;
  }
  return [];
}

function indexLines(unlisted: readonly Operation[], entry: (operation: Operation) => string): string[] {
  const reads = unlisted.filter((operation) => operation.annotations.readOnlyHint === true);
  const changes = unlisted.filter((operation) => operation.annotations.readOnlyHint !== true);
  return [
    ...(reads.length > 0 ? [`Reads, run with call_read_operation: ${reads.map(entry).join('; ')}`] : []),
    ...(changes.length > 0 ? [`Changes, run with call_operation: ${changes.map(entry).join('; ')}`] : []),
  ];
}

/** `update_member(member_id*, email, name, tags)`: `*` marks a required argument. */
export function signature(operation: Operation): string {
  const properties = operation.inputSchema['properties'];
  const names = isSchema(properties) ? Object.keys(properties) : [];
  const required = new Set(requiredOf(operation.inputSchema));
  // Required arguments first: a signature cut short still says what a call cannot go without.
  const ordered = [...names.filter((name) => required.has(name)), ...names.filter((name) => !required.has(name))];
  const shown = ordered.slice(0, MAX_SHOWN_ARGUMENTS).map((name) => (required.has(name) ? `${name}*` : name));
  if (ordered.length > MAX_SHOWN_ARGUMENTS) shown.push('…');
  return `${operation.toolName}(${shown.join(', ')})`;
}

function requiredOf(schema: JsonSchema): string[] {
  const required = schema['required'];
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [];
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
