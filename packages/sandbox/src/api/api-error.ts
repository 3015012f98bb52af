/**
 * The error body of every business endpoint: `{error, error_description, fields?, scope?}`. It
 * reuses the RFC 6749 §5.2 / RFC 6750 §3.1 member names so that a client reads OAuth errors and
 * business errors the same way; `fields` names each offending input on a 400.
 */
import type { FieldProblem } from './validate.js';

export type ApiErrorCode =
  | 'invalid_request'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'sign_in_required'
  | 'not_found'
  | 'conflict'
  | 'invalid_state_transition'
  | 'unsupported_media_type';

const STATUS: Record<ApiErrorCode, number> = {
  invalid_request: 400,
  invalid_token: 401,
  insufficient_scope: 403,
  sign_in_required: 403,
  not_found: 404,
  conflict: 409,
  invalid_state_transition: 409,
  unsupported_media_type: 415,
};

interface ApiErrorBody {
  error: ApiErrorCode;
  error_description: string;
  fields?: FieldProblem[];
  scope?: string;
}

/** Thrown by handlers; the dispatcher turns it into the JSON error response. */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly fields: readonly FieldProblem[] | undefined;
  /** On `insufficient_scope`: every scope the operation needs, space-separated. */
  readonly scope: string | undefined;

  constructor(
    code: ApiErrorCode,
    description: string,
    details: { fields?: readonly FieldProblem[]; scope?: string } = {},
  ) {
    super(description);
    this.name = 'ApiError';
    this.code = code;
    this.fields = details.fields;
    this.scope = details.scope;
  }

  get status(): number {
    return STATUS[this.code];
  }
}

export function invalidInput(fields: readonly FieldProblem[]): ApiError {
  const named = fields.map((problem) => `${problem.field} ${problem.message}`).join('; ');
  return new ApiError('invalid_request', `invalid input: ${named}`, { fields });
}

export function notFound(kind: string, id: string): ApiError {
  return new ApiError('not_found', `no ${kind} with id ${JSON.stringify(id)}`);
}

export function errorResponse(error: ApiError, headers: Record<string, string> = {}): Response {
  const body: ApiErrorBody = { error: error.code, error_description: error.message };
  if (error.fields && error.fields.length > 0) body.fields = [...error.fields];
  if (error.scope !== undefined) body.scope = error.scope;
  return Response.json(body, { status: error.status, headers });
}
