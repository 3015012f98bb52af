/**
 * MCP tool annotations from the HTTP method's semantics (RFC 9110 §9.2.1 safe, §9.2.2
 * idempotent). They are hints for the host's confirmation prompts, never a security boundary.
 * DELETE and PUT (which replaces what is there) are marked destructive; POST and PATCH add or
 * change without replacing.
 * @see SECURITY.md API-09
 */
import type { HttpMethod, ToolAnnotations } from './operation.js';

const SAFE_METHODS: ReadonlySet<HttpMethod> = new Set(['get', 'head', 'options', 'trace']);
const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(['get', 'head', 'options', 'trace', 'put', 'delete']);
const DESTRUCTIVE_METHODS: ReadonlySet<HttpMethod> = new Set(['put', 'delete']);

export function annotationsFor(method: HttpMethod, title: string): ToolAnnotations {
  const readOnly = method === 'get' || method === 'head';
  return {
    title,
    readOnlyHint: readOnly,
    ...(SAFE_METHODS.has(method) ? {} : { destructiveHint: DESTRUCTIVE_METHODS.has(method) }),
    idempotentHint: IDEMPOTENT_METHODS.has(method),
    openWorldHint: true,
  };
}

export function isReadOnlyMethod(method: HttpMethod): boolean {
  return method === 'get' || method === 'head';
}
