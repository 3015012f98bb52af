/**
 * Tool names: `^[a-zA-Z0-9_-]{1,51}$`, unique within a catalogue, the same on every run for the
 * same document. 51 leaves room for a host prefix: Claude Code shows `mcp__school__<name>`, and the
 * Anthropic and OpenAI APIs cap a tool name at 64 characters.
 *
 * - From `operationId`, in snake_case: `listCourses` → `list_courses`, `repos/get-content` →
 *   `repos_get_content`.
 * - Without one, from method and path: `GET /courses` → `list_courses`, `GET /courses/{id}` →
 *   `get_courses_by_id`, `POST` → `create_…`, `PUT`/`PATCH` → `update_…`, `DELETE` → `delete_…`.
 * - Too long: cut at a word boundary within 44 characters, then `_` and six hex digits of the
 *   SHA-256 of the operationId (or of `METHOD /path`), so two long ids that share a beginning
 *   still differ.
 * - Names that collide all take the same kind of suffix, hashed from `METHOD /path` (unique in
 *   a document), so which one is listed first never decides who keeps the plain name.
 * Names are keys of a map and are never parsed back into a method or path.
 */
import { createHash } from 'node:crypto';
import type { HttpMethod } from './operation.js';

export const MAX_TOOL_NAME_LENGTH = 51;
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,51}$/;

const HASH_LENGTH = 6;

export interface NamingInput {
  readonly operationId: string | undefined;
  readonly method: HttpMethod;
  readonly pathTemplate: string;
}

/** One name per input, in the same order. */
export function assignToolNames(inputs: readonly NamingInput[]): string[] {
  const bases = inputs.map(baseToolName);
  const counts = new Map<string, number>();
  for (const base of bases) counts.set(base, (counts.get(base) ?? 0) + 1);
  const names = bases.map((base, index) => {
    const input = inputs[index];
    if ((counts.get(base) ?? 0) === 1 || !input) return base;
    return withHashSuffix(base, operationKey(input));
  });
  return ensureUnique(names, inputs);
}

/** The name an operation asks for before collisions are settled. */
export function baseToolName(input: NamingInput): string {
  const fromId = input.operationId === undefined ? '' : snakeCase(input.operationId);
  if (fromId !== '') {
    return fromId.length <= MAX_TOOL_NAME_LENGTH ? fromId : withHashSuffix(fromId, input.operationId ?? '');
  }
  const readable = readableName(input.method, input.pathTemplate);
  return readable.length <= MAX_TOOL_NAME_LENGTH ? readable : withHashSuffix(readable, operationKey(input));
}

/** `getCourseByID`, `repos/list-for-org`, `Courses.List` → `get_course_by_id`, `repos_list_for_org`, `courses_list`. */
export function snakeCase(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^a-zA-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

const VERSION_SEGMENT = /^(api|rest|v\d+[a-z0-9.]*)$/i;

export function readableName(method: HttpMethod, pathTemplate: string): string {
  const segments = pathTemplate.split('/').filter((segment) => segment !== '');
  while (segments.length > 1 && VERSION_SEGMENT.test(segments[0] ?? '')) segments.shift();
  const lastIsPlaceholder = /\}$/.test(segments[segments.length - 1] ?? '');
  const words = segments.map((segment) => {
    const placeholder = /^\{([^}]*)\}$/.exec(segment);
    return placeholder ? `by_${snakeCase(placeholder[1] ?? '')}` : snakeCase(segment);
  });
  const subject = words.filter((word) => word !== '' && word !== 'by_').join('_') || 'root';
  return `${methodVerb(method, lastIsPlaceholder)}_${subject}`;
}

function methodVerb(method: HttpMethod, addressesOneItem: boolean): string {
  switch (method) {
    case 'get':
      return addressesOneItem ? 'get' : 'list';
    case 'post':
      return 'create';
    case 'put':
    case 'patch':
      return 'update';
    default:
      return method;
  }
}

function withHashSuffix(name: string, key: string, hashLength = HASH_LENGTH): string {
  const room = MAX_TOOL_NAME_LENGTH - hashLength - 1;
  let head = name.slice(0, room);
  const boundary = head.lastIndexOf('_');
  if (name.length > room && boundary > room / 2) head = head.slice(0, boundary);
  return `${head.replace(/_+$/, '')}_${shortHash(key, hashLength)}`;
}

function shortHash(key: string, length: number): string {
  return createHash('sha256').update(key).digest('hex').slice(0, length);
}

function operationKey(input: NamingInput): string {
  return `${input.method.toUpperCase()} ${input.pathTemplate}`;
}

/**
 * A last pass for the improbable: a hashed name equal to some other operation's plain name, or two
 * six-digit hashes that agree. Longer hashes settle it, deterministically.
 */
function ensureUnique(names: string[], inputs: readonly NamingInput[]): string[] {
  const seen = new Set<string>();
  return names.map((name, index) => {
    let unique = name;
    const input = inputs[index];
    for (let length = HASH_LENGTH + 2; seen.has(unique) && input; length += 2) {
      unique = withHashSuffix(name, `${operationKey(input)}#${length}`, Math.min(length, 16));
    }
    seen.add(unique);
    return unique;
  });
}
