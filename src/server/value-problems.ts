/**
 * A value of the right type that a schema still refuses (format, pattern, length, bounds), said
 * in the words of `argument-problems.ts` and with an example of a value that fits: the schema's
 * own example when it has one, else a usual one for the format. An agent told `"starts_at" must be
 * a date-time such as "2025-03-18T17:00:00Z"` fixes the call; one told `must match format
 * "date-time"` guesses. Pure. Formats it does not know are left to the validator's own words.
 */
type Schema = Readonly<Record<string, unknown>>;

/** Usual values of the formats tool schemas use, for a schema that gives no example. */
const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  'date-time': '2025-03-18T17:00:00Z',
  date: '2025-03-18',
  time: '17:00:00Z',
  email: 'jane@example.com',
  uri: 'https://example.com/files/guide.pdf',
  url: 'https://example.com/files/guide.pdf',
  uuid: '123e4567-e89b-42d3-a456-426614174000',
};

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  'date-time': 'a date-time',
  date: 'a date',
  time: 'a time',
  email: 'an email address',
  uri: 'an absolute URL',
  url: 'an absolute URL',
  uuid: 'a UUID',
};

const FORMAT_CHECKS: Readonly<Record<string, (value: string) => boolean>> = {
  'date-time': (value) =>
    /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})$/.test(value),
  date: (value) => /^\d{4}-\d{2}-\d{2}$/.test(value),
  time: (value) => /^\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})?$/.test(value),
  email: (value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value),
  uri: isAbsoluteUrl,
  url: isAbsoluteUrl,
  uuid: (value) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value),
};

/** What is wrong with a string, number or list that has the right type, or undefined. */
export function valueProblem(schema: Schema, value: unknown): string | undefined {
  if (typeof value === 'string') return stringProblem(schema, value);
  if (typeof value === 'number') return numberProblem(schema, value);
  if (Array.isArray(value)) return countProblem(value.length, schema['minItems'], schema['maxItems'], 'item');
  return undefined;
}

function stringProblem(schema: Schema, value: string): string | undefined {
  const format = typeof schema['format'] === 'string' ? schema['format'] : undefined;
  const check = format === undefined ? undefined : FORMAT_CHECKS[format];
  if (format !== undefined && check !== undefined && !check(value))
    return `must be ${FORMAT_NAMES[format]}${suchAs(schema, FORMAT_EXAMPLES[format])}`;
  const pattern = schema['pattern'];
  if (typeof pattern === 'string' && !matches(pattern, value))
    return `must match the pattern ${pattern}${suchAs(schema, undefined)}`;
  return countProblem([...value].length, schema['minLength'], schema['maxLength'], 'character');
}

function numberProblem(schema: Schema, value: number): string | undefined {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  if (typeof minimum === 'number' && value < minimum) return `must be at least ${minimum}`;
  if (typeof maximum === 'number' && value > maximum) return `must be at most ${maximum}`;
  if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum) return `must be more than ${exclusiveMinimum}`;
  if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum) return `must be less than ${exclusiveMaximum}`;
  return undefined;
}

function countProblem(count: number, min: unknown, max: unknown, unit: string): string | undefined {
  if (typeof min === 'number' && count < min) return `must have at least ${min} ${unit}${min === 1 ? '' : 's'}`;
  if (typeof max === 'number' && count > max) return `must have at most ${max} ${unit}${max === 1 ? '' : 's'}`;
  return undefined;
}

/** `, such as "2025-03-18"`: the schema's own example first, then the format's usual one. */
function suchAs(schema: Schema, fallback: string | undefined): string {
  const examples = schema['examples'];
  const own = [Array.isArray(examples) ? examples[0] : undefined, schema['example'], schema['default']].find(
    (candidate) => typeof candidate === 'string',
  );
  const example = own ?? fallback;
  return example === undefined ? '' : ` such as ${JSON.stringify(example)}`;
}

function matches(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    // A pattern JavaScript cannot read is the validator's to judge.
    return true;
  }
}

function isAbsoluteUrl(value: string): boolean {
  return URL.canParse(value) && /^[a-z][a-z0-9+.-]*:/i.test(value);
}
