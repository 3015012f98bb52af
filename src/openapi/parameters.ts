/**
 * The parameters an operation takes, as the document declares them: path-item parameters merged
 * with operation parameters (the operation's win for the same name and location, OpenAPI 3.x
 * Path Item Object), cookie parameters and headers that carry credentials or framing left out,
 * and the path template's names reconciled with the declared path parameters.
 * @see SECURITY.md API-05
 */
import { arrayOr, entriesOf, isRecord, stringOr, type JsonRecord } from './json-value.js';
import type { JsonSchema, ParameterLocation } from './operation.js';
import { jsonLengthWithin } from './json-size.js';
import { resolveSchema } from './resolve-schema.js';
import { INPUT_BUDGET, type SchemaMeter } from './schema-budget.js';
import { convertSchema } from './schema-converter.js';
import { plainText } from './plain-text.js';
import { templateNames } from './path-template.js';

export interface DeclaredParameter {
  readonly name: string;
  readonly in: Exclude<ParameterLocation, 'cookie'>;
  readonly required: boolean;
  readonly schema: JsonSchema;
  readonly style?: string;
  readonly explode?: boolean;
  readonly allowReserved?: boolean;
}

/**
 * Header parameters a tool argument may never set: credentials, hop-by-hop and framing headers,
 * proxy forwarding headers, and the three that OpenAPI itself says to ignore
 * (`Accept`, `Content-Type`, `Authorization`, OpenAPI 3.1 Parameter Object "name").
 */
const FORBIDDEN_HEADERS = new Set([
  'accept',
  'authorization',
  'connection',
  'content-length',
  'content-type',
  'cookie',
  'expect',
  'forwarded',
  'host',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function isForbiddenHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return FORBIDDEN_HEADERS.has(lower) || lower.startsWith('x-forwarded-') || lower.startsWith('proxy-');
}

const LOCATION_ORDER: Readonly<Record<DeclaredParameter['in'], number>> = { path: 0, query: 1, header: 2 };

/**
 * Parameters one operation may declare (path item and operation together). Far above real APIs;
 * the rest are left out with a warning, as one tool cannot list thousands of arguments (API-11).
 */
export const MAX_PARAMETERS = 128;

/** Parameters in argument-claiming order: path, then query, then header; document order within. */
export function declaredParameters(
  pathTemplate: string,
  pathItemParameters: unknown,
  operationParameters: unknown,
  root: JsonRecord,
  meter: SchemaMeter,
): DeclaredParameter[] {
  const placeholders = templateNames(pathTemplate);
  const result: DeclaredParameter[] = [];
  for (const parameter of mergedParameters(pathItemParameters, operationParameters, root).parameters) {
    const location = parameter['in'];
    const name = String(parameter['name']);
    if (location !== 'path' && location !== 'query' && location !== 'header') continue;
    if (location === 'header' && isForbiddenHeader(name)) continue;
    if (location === 'path' && !placeholders.includes(name)) continue;
    result.push(toDeclared(parameter, name, location, root, meter));
  }
  for (const placeholder of placeholders) {
    if (result.some((parameter) => parameter.in === 'path' && parameter.name === placeholder)) continue;
    result.push({
      name: placeholder,
      in: 'path',
      required: true,
      schema: { type: 'string', description: `The ${placeholder} in the path.` },
    });
  }
  return result.sort((a, b) => LOCATION_ORDER[a.in] - LOCATION_ORDER[b.in]);
}

/**
 * What the catalogue says about an operation's parameters before any schema is converted: path
 * placeholders no parameter declares (taken as required strings), and parameters over the cap.
 */
export function parameterWarnings(
  pathTemplate: string,
  pathItemParameters: unknown,
  operationParameters: unknown,
  root: JsonRecord,
): string[] {
  const warnings: string[] = [];
  const { parameters, leftOut } = mergedParameters(pathItemParameters, operationParameters, root);
  if (leftOut)
    warnings.push(
      `${pathTemplate}: more than ${MAX_PARAMETERS} parameters declared; only the first ${MAX_PARAMETERS} are used.`,
    );
  const paths = new Set(
    parameters.filter((parameter) => parameter['in'] === 'path').map((parameter) => parameter['name']),
  );
  for (const placeholder of templateNames(pathTemplate)) {
    if (!paths.has(placeholder))
      warnings.push(
        `${pathTemplate}: path parameter "${placeholder}" is not declared; it is taken as a required string.`,
      );
  }
  return warnings;
}

/** Path-item parameters overridden by the operation's (same name and location), at most `MAX_PARAMETERS`. */
function mergedParameters(
  pathItemParameters: unknown,
  operationParameters: unknown,
  root: JsonRecord,
): { parameters: JsonRecord[]; leftOut: boolean } {
  const merged = new Map<string, JsonRecord>();
  const fromItem = arrayOr(pathItemParameters);
  const fromOperation = arrayOr(operationParameters);
  for (const raw of [...fromItem.slice(0, MAX_PARAMETERS), ...fromOperation.slice(0, MAX_PARAMETERS)]) {
    const parameter = resolveSchema(raw, root);
    if (!isRecord(parameter) || typeof parameter['name'] !== 'string' || typeof parameter['in'] !== 'string') continue;
    const name = parameter['name'];
    const key = `${parameter['in']}:${parameter['in'] === 'header' ? name.toLowerCase() : name}`;
    merged.set(key, parameter);
  }
  const leftOut =
    fromItem.length > MAX_PARAMETERS || fromOperation.length > MAX_PARAMETERS || merged.size > MAX_PARAMETERS;
  return { parameters: [...merged.values()].slice(0, MAX_PARAMETERS), leftOut };
}

function toDeclared(
  parameter: JsonRecord,
  name: string,
  location: DeclaredParameter['in'],
  root: JsonRecord,
  meter: SchemaMeter,
): DeclaredParameter {
  const schema = convertSchema(parameterSchema(parameter), root, 'input', INPUT_BUDGET, meter);
  const description = stringOr(parameter['description']);
  if (description !== undefined && plainText(description, 1) !== '')
    schema['description'] = plainText(description, 300);
  if (parameter['deprecated'] === true) schema['deprecated'] = true;
  const examples = parameterExamples(parameter, root);
  if (examples.length > 0) schema['examples'] = examples;
  return {
    name,
    in: location,
    // OpenAPI: a path parameter's `required` MUST be true; the template cannot be filled otherwise.
    required: location === 'path' || parameter['required'] === true,
    schema,
    ...(typeof parameter['style'] === 'string' ? { style: parameter['style'] } : {}),
    ...(typeof parameter['explode'] === 'boolean' ? { explode: parameter['explode'] } : {}),
    ...(parameter['allowReserved'] === true ? { allowReserved: true } : {}),
  };
}

/** `schema`, or the schema of the first media type of `content` (the two are exclusive). */
function parameterSchema(parameter: JsonRecord): unknown {
  if ('schema' in parameter) return parameter['schema'];
  const [first] = entriesOf(parameter['content']);
  return first && isRecord(first[1]) ? first[1]['schema'] : undefined;
}

/** An example longer than this as JSON is left out, as in schemas. */
const MAX_EXAMPLE_LENGTH = 2_048;

/** `example`, or the values of `examples` (Example Objects, which may be `$ref`s to `components/examples`). */
function parameterExamples(parameter: JsonRecord, root: JsonRecord): unknown[] {
  const short = (value: unknown) => value !== undefined && jsonLengthWithin(value, MAX_EXAMPLE_LENGTH) !== undefined;
  if ('example' in parameter) return [parameter['example']].filter(short);
  return entriesOf(parameter['examples'])
    .slice(0, 3)
    .map(([, raw]) => {
      const example = resolveSchema(raw, root);
      return isRecord(example) ? example['value'] : undefined;
    })
    .filter(short);
}
