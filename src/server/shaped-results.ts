/**
 * Results that fit a context: a read's `fields` argument (when the bridge offers it) keeps only
 * those fields, the text stays the compact JSON of the structured result, and a list that has a
 * next page says how to ask for it in a second text block, so the first stays exact JSON. An
 * answer holding school text names those fields as untrusted in a text block of its own (API-17).
 */
import { isInputRequiredResult, type CallToolResult } from '@modelcontextprotocol/server';
import { MAX_RESULT_TEXT_CHARS } from '../executor/index.js';
import { schoolTextNote } from '../school-text/index.js';
import { bridgeProjects, PROJECTION_ARGUMENT } from '../openapi/index.js';
import type { OperationCaller, OperationResult } from './operation-caller.js';
import { pagingHint } from './paging-hint.js';
import { projectFields } from './project-fields.js';

export interface ShapeOptions {
  /** The fields asked for, when the bridge applies them. */
  readonly fields?: readonly string[];
  readonly args: Readonly<Record<string, unknown>>;
  /** The operation's argument names, to tell which paging argument it takes. */
  readonly argumentNames: readonly string[];
  readonly maxTextChars?: number;
}

export function withShapedResults(call: OperationCaller): OperationCaller {
  return async (operation, args, context, connection) => {
    const projects = bridgeProjects(operation) && PROJECTION_ARGUMENT in args;
    const asked = projects ? args[PROJECTION_ARGUMENT] : undefined;
    const sent = projects
      ? Object.fromEntries(Object.entries(args).filter(([name]) => name !== PROJECTION_ARGUMENT))
      : args;
    const result = await call(operation, sent, context, connection);
    return shapeResult(result, {
      ...(Array.isArray(asked) ? { fields: asked.filter((field): field is string => typeof field === 'string') } : {}),
      args: sent,
      argumentNames: operation.parameters.map((parameter) => parameter.argument),
    });
  };
}

/** Pure: the result with the projection and the paging line applied; errors pass unchanged. */
export function shapeResult(result: OperationResult, options: ShapeOptions): OperationResult {
  if (isInputRequiredResult(result) || result.isError || result.structuredContent === undefined) return result;
  const plain = result as CallToolResult;
  const structured = plain.structuredContent as Record<string, unknown>;
  const projection = options.fields === undefined ? undefined : projectFields(structured, options.fields);
  const value = projection?.value ?? structured;
  const notes = [
    ...(projection !== undefined && projection.unknown.length > 0
      ? [`no such field in the answer: ${projection.unknown.join(', ')}`]
      : []),
    ...optional(pagingHint(value, options.args, options.argumentNames)),
  ];
  const untrusted = schoolTextNote(value);
  if (projection === undefined && notes.length === 0 && untrusted === undefined) return result;
  const first =
    projection === undefined
      ? plain.content[0]!
      : { type: 'text' as const, text: capped(JSON.stringify(value), options.maxTextChars ?? MAX_RESULT_TEXT_CHARS) };
  return {
    ...plain,
    content: [
      first,
      ...plain.content.slice(1),
      ...(untrusted === undefined ? [] : [{ type: 'text' as const, text: untrusted }]),
      ...(notes.length > 0 ? [{ type: 'text' as const, text: notes.join('\n') }] : []),
    ],
    structuredContent: value,
  };
}

function optional(line: string | undefined): string[] {
  return line === undefined ? [] : [line];
}

function capped(text: string, maxChars: number): string {
  return text.length <= maxChars
    ? text
    : `${text.slice(0, maxChars)}\n[truncated: showing the first ${maxChars} of ${text.length} characters]`;
}
