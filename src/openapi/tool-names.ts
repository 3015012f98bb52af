/**
 * Tool names: `^[a-zA-Z0-9_-]{1,51}$`, unique within a catalogue, the same on every run for the
 * same document. 51 leaves room for a host prefix: Claude Code shows `mcp__school__<name>`, and the
 * Anthropic and OpenAI APIs cap a tool name at 64 characters.
 *
 * - From `operationId`, in snake_case: `listCourses` → `list_courses`, `repos/get-content` →
 *   `repos_get_content`.
 * - Without one, from method and the path's meaningful words (`path-words.ts`: shared, version
 *   and namespace prefixes dropped): `GET /api/v1/courses` → `list_courses`,
 *   `GET /courses/{id}` → `get_courses_by_id`, `POST` → `create_…`, `PUT`/`PATCH` → `update_…`,
 *   `DELETE` → `delete_…`.
 * - Too long: cut at a word boundary within 44 characters, then `_` and six hex digits of the
 *   SHA-256 of the operationId (or of `METHOD /path`), so two long ids that share a beginning
 *   still differ.
 * - Collisions (API-10). Names are claimed in two rounds: first the names from operationIds,
 *   then the names from method and path. Within a round, of the operations that want the same
 *   name, one keeps it, chosen by a rule that ignores document order: an operationId spelt
 *   exactly as the name, then the shorter path, then the path and method in code-point order.
 *   An operation that loses its operationId name (a reused or clashing operationId) tries its
 *   method-and-path name in the second round; one that loses that too gets it with a hash of
 *   `METHOD /path`. So a new operation that collides with an existing one takes a new name of
 *   its own instead of renaming the existing tool, and every collision is reported.
 * Names are keys of a map and are never parsed back into a method or path.
 * @see SECURITY.md API-08, API-10
 */
import { createHash } from 'node:crypto';
import type { HttpMethod } from './operation.js';
import { isPlaceholder, meaningfulSegments, sharedPrefixLength } from './path-words.js';

const MAX_TOOL_NAME_LENGTH = 51;
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,51}$/;

const HASH_LENGTH = 6;

export interface NamingInput {
  readonly operationId: string | undefined;
  readonly method: HttpMethod;
  readonly pathTemplate: string;
}

export interface AssignedNames {
  /** One name per input, in the same order. */
  readonly names: string[];
  readonly warnings: string[];
}

interface Claim {
  readonly index: number;
  readonly name: string;
  readonly exact: boolean;
}

/** One name per input, in the same order, with a warning for each collision settled. */
export function assignToolNames(inputs: readonly NamingInput[]): AssignedNames {
  const sharedPrefix = sharedPrefixLength(inputs.map((input) => input.pathTemplate));
  const names: (string | undefined)[] = inputs.map(() => undefined);
  const taken = new Set<string>();
  const warnings: string[] = [];

  const settle = (claims: readonly Claim[]): number[] => {
    const losers: number[] = [];
    for (const [name, group] of groupBy(claims, (claim) => claim.name)) {
      const contenders = taken.has(name) ? [] : group;
      if (contenders.length === 0) {
        for (const claim of group) losers.push(claim.index);
        continue;
      }
      const [winner, ...others] = [...contenders].sort((a, b) => compareClaims(a, b, inputs));
      if (!winner) continue;
      names[winner.index] = name;
      taken.add(name);
      for (const claim of others) losers.push(claim.index);
    }
    return losers;
  };

  const fromIds = inputs.flatMap((input, index): Claim[] => {
    const name = idName(input);
    return name === undefined ? [] : [{ index, name, exact: input.operationId === name }];
  });
  const lostIdName = new Set(settle(fromIds));
  const readableClaims = inputs.flatMap((input, index): Claim[] =>
    names[index] === undefined ? [{ index, name: pathName(input, sharedPrefix), exact: false }] : [],
  );
  const lostPathName = new Set(settle(readableClaims));

  inputs.forEach((input, index) => {
    if (names[index] !== undefined) return;
    let unique = withHashSuffix(pathName(input, sharedPrefix), operationKey(input));
    for (let length = HASH_LENGTH + 2; taken.has(unique); length += 2) {
      unique = withHashSuffix(pathName(input, sharedPrefix), `${operationKey(input)}#${length}`, Math.min(length, 16));
    }
    names[index] = unique;
    taken.add(unique);
  });

  const holders = new Map(names.map((name, index) => [name, index]));
  inputs.forEach((input, index) => {
    if (!lostIdName.has(index) && !lostPathName.has(index)) return;
    const wanted = (lostIdName.has(index) ? idName(input) : undefined) ?? pathName(input, sharedPrefix);
    const holder = inputs[holders.get(wanted) ?? -1];
    const by = holder ? ` by ${operationKey(holder)}` : '';
    warnings.push(
      `Tool name "${wanted}" of ${operationKey(input)} is already taken${by}; it is named "${names[index] ?? ''}" instead.`,
    );
  });
  return { names: names.map((name) => name ?? ''), warnings };
}

/** The name an operation asks for before collisions are settled. */
export function baseToolName(input: NamingInput, sharedPrefix = 0): string {
  return idName(input) ?? pathName(input, sharedPrefix);
}

function idName(input: NamingInput): string | undefined {
  const fromId = input.operationId === undefined ? '' : snakeCase(input.operationId);
  if (fromId === '') return undefined;
  return fromId.length <= MAX_TOOL_NAME_LENGTH ? fromId : withHashSuffix(fromId, input.operationId ?? '');
}

function pathName(input: NamingInput, sharedPrefix: number): string {
  const readable = readableName(input.method, input.pathTemplate, sharedPrefix);
  return readable.length <= MAX_TOOL_NAME_LENGTH ? readable : withHashSuffix(readable, operationKey(input));
}

/** Exact operationId first, then fewer path segments, then path and method in code-point order. */
function compareClaims(a: Claim, b: Claim, inputs: readonly NamingInput[]): number {
  if (a.exact !== b.exact) return a.exact ? -1 : 1;
  const left = inputs[a.index];
  const right = inputs[b.index];
  if (!left || !right) return 0;
  const depth = left.pathTemplate.split('/').length - right.pathTemplate.split('/').length;
  if (depth !== 0) return depth;
  return compareText(left.pathTemplate, right.pathTemplate) || compareText(left.method, right.method);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
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

export function readableName(method: HttpMethod, pathTemplate: string, sharedPrefix = 0): string {
  const segments = meaningfulSegments(pathTemplate, sharedPrefix);
  const lastIsPlaceholder = isPlaceholder(segments[segments.length - 1] ?? '');
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
