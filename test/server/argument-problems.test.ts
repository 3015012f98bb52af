import { describe, expect, it } from 'vitest';
import { argumentProblems, invalidArgumentsText, validatorWords } from '../../src/server/argument-problems.js';
import { lazyJsonSchema } from '../../src/server/lazy-json-schema.js';

const schema = {
  type: 'object',
  properties: {
    course_id: { type: 'string' },
    state: { type: 'array', items: { type: 'string', enum: ['draft', 'published'] } },
    body: {
      type: 'object',
      properties: { title: { type: 'string' } },
      required: ['title'],
      additionalProperties: false,
    },
  },
  required: ['course_id'],
  additionalProperties: false,
};

describe('argument problems name the field and where it belongs', () => {
  it('names unknown fields with the known ones, missing ones, wrong types and values by path', () => {
    expect(argumentProblems(schema, { cours_id: 'x', state: ['live'], body: { titel: 'A' } })).toEqual([
      '"course_id" is required',
      '"cours_id" is not a known field (known: course_id, state, body)',
      '"state/0" must be one of "draft", "published"',
      '"body/title" is required',
      '"body/titel" is not a known field (known: title)',
    ]);
    expect(argumentProblems(schema, { course_id: 7 })).toEqual(['"course_id" must be a string']);
  });

  it('says where a misplaced top-level field belongs when the tool knows', () => {
    const problems = argumentProblems(
      schema,
      { course_id: 'c', page: 2 },
      { misplacedTopLevel: (field) => `put "${field}" inside "arguments"` },
    );
    expect(problems).toEqual(['put "page" inside "arguments"']);
  });

  it("speaks of the arguments, not of the validator's data", () => {
    expect(validatorWords('data/title must match pattern "^a"')).toBe('arguments/title must match pattern "^a"');
  });

  it('replaces "must NOT have additional properties" in a tool schema\'s refusal', async () => {
    const verdict = await lazyJsonSchema(schema as never)['~standard'].validate({ course_id: 'c', extra: true });
    expect('issues' in verdict && verdict.issues?.map((issue) => issue.message)).toEqual([
      '"extra" is not a known field (known: course_id, state, body)',
    ]);
    const accepted = await lazyJsonSchema(schema as never)['~standard'].validate({ course_id: 'c' });
    expect('issues' in accepted && accepted.issues).toBeFalsy();
  });

  it('takes a single value for a list parameter as a one-item list, and still refuses a wrong one', async () => {
    const validate = lazyJsonSchema(schema as never)['~standard'].validate;
    expect(await validate({ course_id: 'c', state: 'draft' })).toEqual({ value: { course_id: 'c', state: ['draft'] } });
    const refused = await validate({ course_id: 'c', state: 'live' });
    expect('issues' in refused && refused.issues?.map((issue) => issue.message)).toEqual([
      '"state/0" must be one of "draft", "published"',
    ]);
  });

  it("says what a format or pattern wants with an example value, the schema's own first", async () => {
    const values = {
      type: 'object',
      properties: {
        starts_at: { type: 'string', format: 'date-time' },
        email: { type: 'string', format: 'email', examples: ['jane@example.com'] },
        locale: { type: 'string', pattern: '^[a-z]{2}(-[A-Z]{2})?$', examples: ['en-US'] },
        tags: { type: 'array', maxItems: 1, items: { type: 'string', minLength: 1 } },
        per_page: { type: 'integer', minimum: 1, maximum: 50 },
      },
      additionalProperties: false,
    };
    const sent = { starts_at: 'next tuesday', email: 'jane', locale: 'english', tags: ['a', ''], per_page: 80 };
    const problems = [
      '"starts_at" must be a date-time such as "2025-03-18T17:00:00Z"',
      '"email" must be an email address such as "jane@example.com"',
      '"locale" must match the pattern ^[a-z]{2}(-[A-Z]{2})?$ such as "en-US"',
      '"tags" must have at most 1 item',
      '"tags/1" must have at least 1 character',
      '"per_page" must be at most 50',
    ];
    expect(argumentProblems(values, sent)).toEqual(problems);
    expect(
      argumentProblems(values, {
        starts_at: '2025-03-18T17:00:00+01:00',
        email: 'a@b.co',
        locale: 'en',
        tags: ['x'],
        per_page: 5,
      }),
    ).toEqual([]);
    const verdict = await lazyJsonSchema(values as never)['~standard'].validate(sent);
    expect('issues' in verdict && verdict.issues?.map((issue) => issue.message)).toEqual([problems.join('; ')]);
  });

  it("words a refusal as the SDK words a listed tool's, for call_operation too", () => {
    expect(
      invalidArgumentsText('list_orders', ['"per_page" must be an integer', '"state/0" must be one of "paid"']),
    ).toBe(
      'Input validation error: Invalid arguments for tool list_orders: "per_page" must be an integer; "state/0" must be one of "paid"',
    );
  });
});
