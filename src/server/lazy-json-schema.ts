/**
 * A tool schema whose validator is compiled on its first use rather than at start. Compiling a
 * JSON Schema costs milliseconds per tool, and a server lists every tool at once but calls few:
 * compiling them all up front made start-up grow with the size of the school's document.
 * `tools/list` reads the JSON Schema itself, which needs no compiling.
 */
import { fromJsonSchema, type JsonSchemaType, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';

export function lazyJsonSchema(schema: JsonSchemaType): StandardSchemaWithJSON {
  let compiled: StandardSchemaWithJSON | undefined;
  const validator = () => (compiled ??= fromJsonSchema(schema));
  return {
    '~standard': {
      version: 1,
      vendor: 'school-mcp',
      jsonSchema: { input: () => schema, output: () => schema },
      validate: (value: unknown) => validator()['~standard'].validate(value),
    },
  };
}
