/**
 * The input of a tool whose schema does not fit its budget (API-11): still a closed object, the
 * parameters kept with their own schemas while they fit, the rest with a one-line schema (or left
 * out when optional and even that does not fit), and the body as one argument that takes any
 * JSON value. The school still checks the value and says what is wrong; the agent loses the
 * shape, not the tool. Pure.
 * @see SECURITY.md API-11
 */
import type { ToolInput } from './input-schema.js';
import { argumentClaimer } from './input-schema.js';
import { withImpliedTypes } from './implied-types.js';
import { jsonBytes } from './json-size.js';
import type { JsonSchema, OperationBody, OperationParameter } from './operation.js';
import { fileArgumentSchema } from './declared-body.js';

/** Room kept for the object around the properties and for the body argument. */
const FRAME_BYTES = 600;

export function simplifiedToolInput(
  parameters: readonly OperationParameter[],
  body: OperationBody | undefined,
  maxBytes: number,
): ToolInput {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const kept: OperationParameter[] = [];
  const claim = argumentClaimer();
  let spent = FRAME_BYTES;
  for (const parameter of parameters) {
    const full = jsonBytes(parameter.schema) + parameter.argument.length + 4;
    let schema: JsonSchema | undefined;
    if (spent + full <= maxBytes) {
      schema = withImpliedTypes(parameter.schema);
      spent += full;
    } else {
      const brief = briefParameterSchema(parameter);
      const short = jsonBytes(brief) + parameter.argument.length + 4;
      if (spent + short > maxBytes && !parameter.required) continue;
      schema = brief;
      spent += short;
    }
    claim(parameter.argument, parameter.in);
    properties[parameter.argument] = schema;
    if (parameter.required) required.push(parameter.argument);
    kept.push({ ...parameter, schema });
  }

  let simplifiedBody: OperationBody | undefined;
  if (body) {
    const argument = claim('body', 'body');
    properties[argument] = body.file === true ? fileArgumentSchema() : { description: bodyNote(body) };
    if (body.required) required.push(argument);
    simplifiedBody = {
      contentType: body.contentType,
      required: body.required,
      schema: properties[argument],
      mode: 'wrapped',
      argument,
      ...(body.fileProperties && body.fileProperties.length > 0 ? { fileProperties: body.fileProperties } : {}),
      ...(body.file === true ? { file: true } : {}),
    };
  }

  const inputSchema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) inputSchema['required'] = required;
  inputSchema['additionalProperties'] = false;
  return { inputSchema, parameters: kept, body: simplifiedBody };
}

function briefParameterSchema(parameter: OperationParameter): JsonSchema {
  const type = parameter.schema['type'];
  return {
    ...(typeof type === 'string' ? { type } : {}),
    description: `The ${parameter.in} parameter ${JSON.stringify(parameter.name.slice(0, 100))}; its schema is too large to list here.`,
  };
}

function bodyNote(body: OperationBody): string {
  const files =
    body.fileProperties && body.fileProperties.length > 0
      ? ` The fields ${body.fileProperties
          .slice(0, 10)
          .map((name) => JSON.stringify(name.slice(0, 60)))
          .join(', ')} are files: give each as {"filename", "content_base64"}.`
      : '';
  return (
    `The request body (${body.contentType.slice(0, 100)}) as one JSON value. Its schema is too large to list in a tool, so its shape is not shown: ` +
    `the school checks the value and says what is wrong.${files}`
  );
}
