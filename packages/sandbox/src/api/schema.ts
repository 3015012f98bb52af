/**
 * The JSON Schema (2020-12, as OpenAPI 3.1 uses it) that every route declares. The same objects are
 * published in `/openapi.json` and enforced on requests, so the document cannot promise what the
 * API does not check. Builders keep the route table short; `validate.ts` enforces the subset they
 * produce.
 */
import { DATE_OR_DATE_TIME_PATTERN } from './school-time.js';

export interface JsonSchema {
  type?: JsonType | readonly [JsonType, 'null'];
  format?: 'date-time' | 'date' | 'email' | 'uri' | 'binary';
  description?: string;
  enum?: readonly (string | number | boolean | null)[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  minProperties?: number;
  default?: unknown;
  examples?: readonly unknown[];
  readOnly?: boolean;
  $ref?: string;
}

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

type Extras = Omit<JsonSchema, 'type' | 'properties' | 'required' | 'items' | 'enum'>;

/** Adds an example without making every call site spell `examples: [...]`. */
function withExample(schema: JsonSchema, example: unknown): JsonSchema {
  return example === undefined ? schema : { ...schema, examples: [example] };
}

export const s = {
  string(description: string, extras: Extras & { example?: unknown } = {}): JsonSchema {
    const { example, ...rest } = extras;
    return withExample({ type: 'string', description, ...rest }, example);
  },
  integer(description: string, extras: Extras & { example?: unknown } = {}): JsonSchema {
    const { example, ...rest } = extras;
    return withExample({ type: 'integer', description, ...rest }, example);
  },
  number(description: string, extras: Extras & { example?: unknown } = {}): JsonSchema {
    const { example, ...rest } = extras;
    return withExample({ type: 'number', description, ...rest }, example);
  },
  boolean(description: string, extras: Extras = {}): JsonSchema {
    return { type: 'boolean', description, ...extras };
  },
  dateTime(description: string, example = '2025-03-14T09:30:00Z'): JsonSchema {
    return { type: 'string', format: 'date-time', description, examples: [example] };
  },
  /** A filter or range bound: the school's one date convention (see `school-time.ts`). */
  dateOrDateTime(description: string, example: string): JsonSchema {
    return {
      type: 'string',
      pattern: DATE_OR_DATE_TIME_PATTERN,
      description: `${description} A date (in the school's time zone) or date-time.`,
      examples: [example],
    };
  },
  email(description: string, example = 'jane@example.com'): JsonSchema {
    return { type: 'string', format: 'email', description, maxLength: 254, examples: [example] };
  },
  uri(description: string, example = 'https://cdn.example.com/cover.png'): JsonSchema {
    return { type: 'string', format: 'uri', description, maxLength: 2048, examples: [example] };
  },
  id(description: string, example: string): JsonSchema {
    return {
      type: 'string',
      description,
      minLength: 1,
      maxLength: 64,
      pattern: '^[a-z]+_[A-Za-z0-9]+$',
      examples: [example],
    };
  },
  enumOf<T extends string>(values: readonly T[], description: string, extras: Extras = {}): JsonSchema {
    return { type: 'string', enum: values, description, ...extras };
  },
  /** A multi-value filter: `?state=a&state=b` (OpenAPI form style, exploded) matches either. */
  oneOrMoreOf<T extends string>(values: readonly T[], description: string): JsonSchema {
    return {
      type: 'array',
      items: { type: 'string', enum: values },
      description,
      minItems: 1,
      maxItems: values.length,
      examples: [[values[0]]],
    };
  },
  nullable(schema: JsonSchema): JsonSchema {
    if (schema.$ref) return schema;
    const base = schema.type;
    if (typeof base !== 'string') return schema;
    const enumValues = schema.enum ? { enum: [...schema.enum, null] } : {};
    return { ...schema, type: [base, 'null'], ...enumValues };
  },
  array(items: JsonSchema, description: string, extras: Extras = {}): JsonSchema {
    return { type: 'array', items, description, ...extras };
  },
  /** A closed object: every property listed, unknown ones refused. */
  object(
    properties: Record<string, JsonSchema>,
    required: readonly string[],
    description?: string,
    extras: Extras = {},
  ): JsonSchema {
    return {
      type: 'object',
      ...(description ? { description } : {}),
      properties,
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
      ...extras,
    };
  },
  ref(component: string): JsonSchema {
    return { $ref: `#/components/schemas/${component}` };
  },
} as const;

/** The component name a `$ref` points at. */
export function refName(schema: JsonSchema): string | undefined {
  const prefix = '#/components/schemas/';
  return schema.$ref?.startsWith(prefix) ? schema.$ref.slice(prefix.length) : undefined;
}

/** The same object schema with every property optional: the body of a partial update. */
export function partial(schema: JsonSchema, description: string): JsonSchema {
  const { required: _required, ...rest } = schema;
  return { ...rest, description, minProperties: 1 };
}
