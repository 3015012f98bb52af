/**
 * Tool arguments refused by their schema, said so that the agent can fix the call: each problem
 * names the field by its path, an unknown field comes with the known ones, and a caller may say
 * where an unknown top-level field belongs (`call_operation`: inside `arguments`). Pure. It reads
 * the schema keywords that tool schemas use for shape (properties, required, additionalProperties,
 * items, type, enum) and for values (format, pattern, lengths, bounds: `value-problems.ts`);
 * anything else is left to the validator's own words.
 */
import { valueProblem } from './value-problems.js';

type Schema = Readonly<Record<string, unknown>>;

export interface ProblemOptions {
  /** What to say about an unknown top-level field, e.g. where it belongs instead. */
  readonly misplacedTopLevel?: (field: string) => string;
}

const MAX_PROBLEMS = 8;
const MAX_KNOWN_LISTED = 20;

export function argumentProblems(schema: Schema, value: unknown, options: ProblemOptions = {}): string[] {
  const problems: string[] = [];
  collect(schema, value, '', problems, options);
  return problems.slice(0, MAX_PROBLEMS);
}

/**
 * Refused arguments in one wording for every tool: a listed tool's refusal is worded by the MCP
 * SDK ("Input validation error: Invalid arguments for tool NAME: " and the problems), so an
 * operation run through `call_operation` is refused in the same words.
 */
export function invalidArgumentsText(tool: string, problems: readonly string[]): string {
  return `Input validation error: Invalid arguments for tool ${tool}: ${joinProblems(problems)}`;
}

/** The problems as one issue's message; the SDK joins several issues with bare commas. */
export function joinProblems(problems: readonly string[]): string {
  return problems.join('; ');
}

/** The validator's message in the agent's terms: its `data` is the tool's arguments. */
export function validatorWords(message: string): string {
  return message.replace(/\bdata(?=[/ ])/g, 'arguments');
}

function collect(schema: Schema, value: unknown, path: string, problems: string[], options: ProblemOptions): void {
  if (value === undefined) return;
  const typeProblem = wrongType(schema['type'], value);
  if (typeProblem !== undefined) {
    problems.push(`${label(path)} ${typeProblem}`);
    return;
  }
  const allowed = schema['enum'];
  if (Array.isArray(allowed) && !allowed.some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    problems.push(`${label(path)} must be one of ${allowed.map((option) => JSON.stringify(option)).join(', ')}`);
    return;
  }
  const refused = valueProblem(schema, value);
  if (refused !== undefined) {
    problems.push(`${label(path)} ${refused}`);
    if (!Array.isArray(value)) return;
  }
  if (Array.isArray(value)) {
    const items = schema['items'];
    if (isSchema(items)) value.forEach((item, index) => collect(items, item, `${path}/${index}`, problems, options));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const record = value as Record<string, unknown>;
  const properties = isSchema(schema['properties']) ? (schema['properties'] as Record<string, Schema>) : {};
  const required = Array.isArray(schema['required'])
    ? (schema['required'] as unknown[]).filter((name): name is string => typeof name === 'string')
    : [];
  for (const name of required) {
    if (record[name] === undefined) problems.push(`${label(join(path, name))} is required`);
  }
  const known = Object.keys(properties);
  for (const [name, item] of Object.entries(record)) {
    const propertySchema = properties[name];
    if (propertySchema !== undefined) {
      if (isSchema(propertySchema)) collect(propertySchema, item, join(path, name), problems, options);
      continue;
    }
    if (schema['additionalProperties'] !== false) continue;
    const advice = path === '' ? options.misplacedTopLevel?.(name) : undefined;
    problems.push(advice ?? `${label(join(path, name))} is not a known field${knownList(known)}`);
  }
}

function wrongType(type: unknown, value: unknown): string | undefined {
  const types = (Array.isArray(type) ? type : [type]).filter((name): name is string => typeof name === 'string');
  if (types.length === 0 || types.some((name) => hasType(name, value))) return undefined;
  return `must be ${types.map((name) => (name === 'integer' ? 'an integer' : name === 'array' || name === 'object' ? `an ${name}` : `a ${name}`)).join(' or ')}`;
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return true;
  }
}

function knownList(known: readonly string[]): string {
  if (known.length === 0) return ' (this object takes no fields)';
  const shown = known.slice(0, MAX_KNOWN_LISTED).join(', ');
  return ` (known: ${shown}${known.length > MAX_KNOWN_LISTED ? ', ...' : ''})`;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, name: string): string {
  return path === '' ? name : `${path}/${name}`;
}

function label(path: string): string {
  return path === '' ? 'the arguments' : `"${path}"`;
}
