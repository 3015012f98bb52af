/**
 * A tool schema whose validator is compiled on its first use rather than at start. Compiling a
 * JSON Schema costs milliseconds per tool, and a server lists every tool at once but calls few:
 * compiling them all up front made start-up grow with the size of the school's document.
 * `tools/list` reads the JSON Schema itself, which needs no compiling. A refusal names each
 * offending field (`argument-problems.ts`) instead of the validator's "must NOT have additional
 * properties"; a single value where a parameter takes a list is taken as that list.
 */
import { fromJsonSchema, type JsonSchemaType, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { argumentProblems, joinProblems, validatorWords, type ProblemOptions } from './argument-problems.js';
import { withSinglesAsLists } from './single-as-list.js';

/**
 * `listed`: the schema hosts are shown, when it is not the one checked (an operation's
 * `shownSchema`), or how to make it on the first listing.
 */
export function lazyJsonSchema(
  schema: JsonSchemaType,
  options: ProblemOptions = {},
  listed: JsonSchemaType | (() => JsonSchemaType) = schema,
): StandardSchemaWithJSON {
  let compiled: StandardSchemaWithJSON | undefined;
  // The checks read the schema as built; what hosts are shown is made on the first listing.
  let shown: JsonSchemaType | undefined;
  const listedSchema = () => (shown ??= typeof listed === 'function' ? listed() : listed);
  const validator = () => (compiled ??= fromJsonSchema(schema));
  // A result is checked twice, by `checkOutput` and then by the SDK, against this same schema;
  // the second check of the same object reads the first one's verdict. Nothing changes a result
  // between the two.
  const verdicts = new WeakMap<object, Verdict>();
  const check = async (sent: unknown): Promise<Verdict> => {
    const value = withSinglesAsLists(schema as Record<string, unknown>, sent);
    const verdict = await validator()['~standard'].validate(value);
    if (!('issues' in verdict) || verdict.issues === undefined) return verdict;
    const named = argumentProblems(schema as Record<string, unknown>, value, options);
    const words = named.length > 0 ? named : verdict.issues.map((issue) => validatorWords(issue.message));
    return { issues: [{ message: joinProblems(words) }] };
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'school-mcp',
      jsonSchema: { input: listedSchema, output: listedSchema },
      validate: async (sent: unknown) => {
        if (typeof sent !== 'object' || sent === null) return check(sent);
        const known = verdicts.get(sent);
        if (known !== undefined) return known;
        const verdict = await check(sent);
        verdicts.set(sent, verdict);
        return verdict;
      },
    },
  };
}

type Verdict = Awaited<ReturnType<StandardSchemaWithJSON['~standard']['validate']>>;
