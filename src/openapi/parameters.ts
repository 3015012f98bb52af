/**
 * The parameters an operation takes, as the document declares them: path-item parameters merged
 * with operation parameters (the operation's win for the same name and location, OpenAPI 3.x
 * Path Item Object), cookie parameters and headers that carry credentials or framing left out,
 * and the path template's names reconciled with the declared path parameters.
 * @see SECURITY.md API-05
 */
import { arrayOr, entriesOf, isRecord, stringOr, type JsonRecord } from './json-value.js';
import type { JsonSchema, ParameterLocation } from './operation.js';
import { INPUT_BUDGET, convertSchema, resolveSchema } from './schema-converter.js';
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

export function isForbiddenHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return FORBIDDEN_HEADERS.has(lower) || lower.startsWith('x-forwarded-') || lower.startsWith('proxy-');
}

const LOCATION_ORDER: Readonly<Record<DeclaredParameter['in'], number>> = { path: 0, query: 1, header: 2 };

/** Parameters in argument-claiming order: path, then query, then header; document order within. */
export function declaredParameters(
  pathTemplate: string,
  pathItemParameters: unknown,
  operationParameters: unknown,
  root: JsonRecord,
  warn: (message: string) => void,
): DeclaredParameter[] {
  const merged = new Map<string, JsonRecord>();
  for (const raw of [...arrayOr(pathItemParameters), ...arrayOr(operationParameters)]) {
    const parameter = resolveSchema(raw, root);
    if (!isRecord(parameter) || typeof parameter['name'] !== 'string' || typeof parameter['in'] !== 'string') continue;
    const name = parameter['name'];
    const key = `${parameter['in']}:${parameter['in'] === 'header' ? name.toLowerCase() : name}`;
    merged.set(key, parameter);
  }
  const placeholders = templateNames(pathTemplate);
  const result: DeclaredParameter[] = [];
  for (const parameter of merged.values()) {
    const location = parameter['in'];
    const name = String(parameter['name']);
    if (location !== 'path' && location !== 'query' && location !== 'header') continue;
    if (location === 'header' && isForbiddenHeader(name)) continue;
    if (location === 'path' && !placeholders.includes(name)) continue;
    result.push(toDeclared(parameter, name, location, root));
  }
  for (const placeholder of placeholders) {
    if (result.some((parameter) => parameter.in === 'path' && parameter.name === placeholder)) continue;
    warn(`${pathTemplate}: path parameter "${placeholder}" is not declared; it is taken as a required string.`);
    result.push({ name: placeholder, in: 'path', required: true, schema: { type: 'string', description: `The ${placeholder} in the path.` } });
  }
  return result.sort((a, b) => LOCATION_ORDER[a.in] - LOCATION_ORDER[b.in]);
}

function toDeclared(parameter: JsonRecord, name: string, location: DeclaredParameter['in'], root: JsonRecord): DeclaredParameter {
  const schema = convertSchema(parameterSchema(parameter), root, 'input', INPUT_BUDGET);
  const description = stringOr(parameter['description']);
  if (description !== undefined && plainText(description, 1) !== '') schema['description'] = plainText(description, 300);
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

/** `example`, or the values of `examples` (Example Objects, which may be `$ref`s to `components/examples`). */
function parameterExamples(parameter: JsonRecord, root: JsonRecord): unknown[] {
  if ('example' in parameter) return [parameter['example']];
  return entriesOf(parameter['examples'])
    .map(([, raw]) => {
      const example = resolveSchema(raw, root);
      return isRecord(example) ? example['value'] : undefined;
    })
    .filter((value) => value !== undefined)
    .slice(0, 3);
}
