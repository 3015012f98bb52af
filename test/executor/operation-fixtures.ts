/** Small hand-built operations, so executor tests depend on nothing but the `Operation` type. */
import { isSchoolMcpError } from '../../src/errors.js';
import type { Operation, OperationBody, OperationParameter } from '../../src/openapi/index.js';

export function parameter(
  fields: Partial<OperationParameter> & Pick<OperationParameter, 'name' | 'in'>,
): OperationParameter {
  return { argument: fields.name, required: fields.in === 'path', schema: { type: 'string' }, ...fields };
}

export function operation(fields: Partial<Operation> = {}): Operation {
  return {
    toolName: 'get_course',
    operationId: 'get_course',
    method: 'get',
    pathTemplate: '/api/v1/courses/{course_id}',
    title: 'Get a course',
    description: '',
    tags: [],
    parameters: [parameter({ name: 'course_id', in: 'path' })],
    body: undefined,
    scopeAlternatives: [['courses:read']],
    requiredScopes: ['courses:read'],
    toolset: 'courses',
    inputSchema: { type: 'object' },
    outputSchema: undefined,
    annotations: {},
    deprecated: false,
    ...fields,
  };
}

export function publicOperation(fields: Partial<Operation> = {}): Operation {
  return operation({
    toolName: 'list_public_courses',
    pathTemplate: '/api/v1/public/courses',
    parameters: [],
    scopeAlternatives: [],
    requiredScopes: [],
    toolset: 'public',
    ...fields,
  });
}

function jsonBody(fields: Partial<OperationBody> = {}): OperationBody {
  return {
    contentType: 'application/json',
    required: true,
    schema: { type: 'object' },
    mode: 'merged',
    propertyArguments: { title: 'title', price: 'price' },
    ...fields,
  };
}

export const createCoupon = operation({
  toolName: 'create_coupon',
  method: 'post',
  pathTemplate: '/api/v1/coupons',
  parameters: [],
  body: jsonBody({ propertyArguments: { code: 'code', percent_off: 'percent_off' } }),
  scopeAlternatives: [['coupons:write']],
  requiredScopes: ['coupons:write'],
  toolset: 'coupons',
});

export const uploadFile = operation({
  toolName: 'upload_file',
  method: 'post',
  pathTemplate: '/api/v1/storage/files',
  parameters: [],
  body: {
    contentType: 'multipart/form-data',
    required: true,
    schema: { type: 'object' },
    mode: 'merged',
    propertyArguments: { file: 'file', folder: 'folder', tags: 'tags' },
    fileProperties: ['file'],
  },
  scopeAlternatives: [['storage:write']],
  requiredScopes: ['storage:write'],
  toolset: 'storage',
});

/** The error code a pure step refused with, or `undefined` when it did not refuse. */
export function refusalCode(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (isSchoolMcpError(error)) return error.code;
    throw error;
  }
  return undefined;
}
