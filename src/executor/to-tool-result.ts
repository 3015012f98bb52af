/**
 * An execution outcome as an MCP tool result. Pure. Success: JSON objects as structured content
 * plus compact text. Failure: an `isError` result that says what failed, with the HTTP status and
 * the school's own words, and the next step for the agent (the school's own advice when it gives one). A body that is not data (an HTML page)
 * is never passed on as data (ERR-04).
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { isHtml, summarizeErrorBody, visibleExcerpt } from './error-body.js';
import type { ExecutorErrorCode } from './executor-error.js';
import { notFoundHint } from './not-found-hint.js';
import { schoolAdvice } from './school-advice.js';
import type { ErrorOutcome, ExecutionOutcome, InsufficientScopeOutcome, ResponseOutcome } from './execution-outcome.js';

/**
 * The longest text a tool result carries (characters). Longer text is cut and ends with a
 * `[truncated: …]` marker; the full JSON object, if any, is still in `structuredContent`.
 */
export const MAX_RESULT_TEXT_CHARS = 25_000;

export interface ToolResultOptions {
  readonly maxTextChars?: number;
}

export function toToolResult(outcome: ExecutionOutcome, options: ToolResultOptions = {}): CallToolResult {
  const maxTextChars = options.maxTextChars ?? MAX_RESULT_TEXT_CHARS;
  if (outcome.kind === 'error') return localFailure(outcome);
  if (outcome.kind === 'insufficient_scope') return insufficientScope(outcome);
  if (outcome.status >= 400) return apiFailure(outcome);
  return success(outcome, maxTextChars);
}

function success(outcome: ResponseOutcome, maxTextChars: number): CallToolResult {
  const { content } = outcome;
  const sizeNote = outcome.truncated
    ? `\n[truncated: the response was cut at ${outcome.byteLength} bytes, the response size limit]`
    : '';
  if (content.kind === 'json') {
    const text = capText(JSON.stringify(content.value), maxTextChars) + sizeNote;
    const isObject = typeof content.value === 'object' && content.value !== null && !Array.isArray(content.value);
    return isObject
      ? { content: [{ type: 'text', text }], structuredContent: content.value as Record<string, unknown> }
      : { content: [{ type: 'text', text }] };
  }
  if (content.kind === 'text') {
    if (isHtml(content.text, outcome.contentType)) {
      return failure(
        'API_UNEXPECTED_CONTENT',
        outcome.call.toolName,
        [
          `The school answered HTTP ${outcome.status} with an HTML page instead of data (a login page or a proxy in between?).`,
          `It starts: "${visibleExcerpt(content.text, outcome.contentType)}"`,
        ],
        'Check the school URL and that the API is reachable without a browser.',
      );
    }
    return { content: [{ type: 'text', text: capText(content.text, maxTextChars) + sizeNote }] };
  }
  if (content.kind === 'binary') {
    const what = `${outcome.byteLength} bytes of ${outcome.contentType ?? 'unlabelled'} content`;
    return {
      content: [
        {
          type: 'text',
          text: `The school answered HTTP ${outcome.status} with ${what}, which is not text and is not shown.`,
        },
      ],
    };
  }
  return { content: [{ type: 'text', text: `Done: HTTP ${outcome.status}, no content.` }] };
}

function apiFailure(outcome: ResponseOutcome): CallToolResult {
  const body = summarizeErrorBody(outcome.content, outcome.contentType);
  const lines = [`The school answered HTTP ${outcome.status} to ${outcome.call.method} ${outcome.call.pathTemplate}.`];
  const said = body.message ?? outcome.challenge?.errorDescription ?? outcome.challenge?.error;
  if (said !== undefined) lines.push(`The school said: ${said}`);
  if (body.fields.length > 0) lines.push(`Fields named: ${body.fields.join(', ')}`);
  if (body.excerpt !== undefined) {
    lines.push(`The error body was ${outcome.contentType ?? 'unlabelled'}, not JSON; it starts: "${body.excerpt}"`);
  }
  const { code, hint } = nextStep(outcome, body.fields);
  return failure(code, outcome.call.toolName, lines, schoolAdvice(body.message) ?? hint);
}

function nextStep(outcome: ResponseOutcome, fields: readonly string[]): { code: ExecutorErrorCode; hint: string } {
  const retryAfter = outcome.retryAfterSeconds;
  const wait = retryAfter === undefined ? 'a minute' : `${retryAfter} seconds`;
  switch (outcome.status) {
    case 400:
    case 422:
      return {
        code: 'API_HTTP_ERROR',
        hint: `Fix ${fields.length > 0 ? fields.join(', ') : 'the arguments the school complained about'} and call the tool again.`,
      };
    case 401:
      return { code: 'API_UNAUTHORIZED', hint: 'Sign in again, then call the tool again.' };
    case 403:
      return {
        code: 'API_HTTP_ERROR',
        hint: 'The signed-in user may not do this; ask a school administrator for the permission.',
      };
    case 404:
      return { code: 'API_HTTP_ERROR', hint: notFoundHint(outcome.call) };
    case 409:
      return {
        code: 'API_HTTP_ERROR',
        hint: 'The item changed or already exists: read it again, then decide whether to retry.',
      };
    case 413:
      return { code: 'API_HTTP_ERROR', hint: 'Send less: a smaller file or fewer items per call.' };
    case 429:
      return { code: 'API_RATE_LIMITED', hint: `Rate limited: wait ${wait}, then retry.` };
    default:
      if (outcome.status >= 500) {
        return {
          code: 'API_HTTP_ERROR',
          hint:
            retryAfter === undefined
              ? 'The school had a problem; try again later.'
              : `The school is unavailable; retry after ${wait}.`,
        };
      }
      return { code: 'API_HTTP_ERROR', hint: 'Check the arguments against the tool description and call again.' };
  }
}

function insufficientScope(outcome: InsufficientScopeOutcome): CallToolResult {
  const scopes = outcome.requiredScopes.map((scope) => `"${scope}"`).join(', ');
  const lines = [`The sign-in does not grant the scope this call needs: ${scopes || '(the school named none)'}.`];
  if (outcome.challenge.errorDescription !== undefined) {
    lines.push(`The school said: ${outcome.challenge.errorDescription}`);
  }
  const hint = `Ask the user to grant ${scopes || 'the missing scope'} by signing in again, then call the tool again.`;
  return failure('API_INSUFFICIENT_SCOPE', outcome.call.toolName, lines, hint);
}

function localFailure(outcome: ErrorOutcome): CallToolResult {
  return failure(outcome.error.code, outcome.call.toolName, [outcome.error.message], outcome.error.hint);
}

function failure(code: string, toolName: string, lines: readonly string[], hint: string | undefined): CallToolResult {
  const text = [`${toolName} failed (${code}).`, ...lines, ...(hint === undefined ? [] : [`Next step: ${hint}`])].join(
    '\n',
  );
  return { content: [{ type: 'text', text }], isError: true };
}

function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[truncated: showing the first ${maxChars} of ${text.length} characters]`;
}
