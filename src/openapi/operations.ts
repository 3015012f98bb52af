/**
 * The document's paths × methods as `Operation`s. Path templates that could change the request's
 * origin or path once appended (API-02) are skipped with one warning each and never become tools.
 * @see SECURITY.md API-02
 */
import { annotationsFor } from './annotations.js';
import { describeOperation, titleFor } from './descriptions.js';
import { buildToolInput } from './input-schema.js';
import { arrayOr, entriesOf, isRecord, recordOr, stringOr, type JsonRecord } from './json-value.js';
import type { HttpMethod, Operation } from './operation.js';
import { buildOutputSchema } from './output-schema.js';
import { declaredParameters } from './parameters.js';
import { pathTemplateProblem } from './path-template.js';
import { declaredBody } from './request-body.js';
import { resolveSchema } from './schema-converter.js';
import { securityRequirements, type SecurityRequirements } from './toolsets.js';

/** OpenAPI Path Item Object fields that hold operations, in the specification's order. */
export const HTTP_METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export interface OperationSource {
  readonly method: HttpMethod;
  readonly pathTemplate: string;
  readonly pathItem: JsonRecord;
  readonly operation: JsonRecord;
}

/** Operations in document order, at most `limit` of them. */
export function enumerateOperations(document: JsonRecord, limit: number, warn: (message: string) => void): OperationSource[] {
  const sources: OperationSource[] = [];
  for (const [pathTemplate, rawItem] of entriesOf(document['paths'])) {
    const problem = pathTemplateProblem(pathTemplate);
    if (problem !== undefined) {
      warn(`Skipped path ${JSON.stringify(pathTemplate.slice(0, 200))}: ${problem}.`);
      continue;
    }
    const pathItem = resolveSchema(rawItem, document);
    if (!isRecord(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isRecord(operation)) continue;
      if (sources.length === limit) {
        warn(`The document has more than ${limit} operations; the rest are left out.`);
        return sources;
      }
      sources.push({ method, pathTemplate, pathItem, operation });
    }
  }
  return sources;
}

export interface SecurityContext {
  readonly rootSecurity: unknown;
  readonly securitySchemes: unknown;
}

/** Security of a source; computed before the operations are built so toolsets can ask whether any scope exists. */
export function sourceSecurity(source: OperationSource, security: SecurityContext): SecurityRequirements {
  const own = 'security' in source.operation ? source.operation['security'] : undefined;
  return securityRequirements(own, security.rootSecurity, security.securitySchemes);
}

export interface BuildContext {
  readonly root: JsonRecord;
  readonly warn: (message: string) => void;
}

/** What the catalogue decides for an operation by looking at all of them: name, scopes to ask for, toolset. */
export interface OperationPlacement {
  readonly toolName: string;
  readonly requiredScopes: readonly string[];
  readonly toolset: string;
}

export function buildOperation(source: OperationSource, placement: OperationPlacement, security: SecurityRequirements, context: BuildContext): Operation {
  const { method, pathTemplate, pathItem, operation } = source;
  const { toolName, requiredScopes, toolset } = placement;
  const { alternatives, anonymousAccess } = security;
  const parameters = declaredParameters(pathTemplate, pathItem['parameters'], operation['parameters'], context.root, context.warn);
  const input = buildToolInput(parameters, declaredBody(operation['requestBody'], context.root));
  const tags = arrayOr(operation['tags']).filter((tag): tag is string => typeof tag === 'string');
  const summary = stringOr(operation['summary']) ?? stringOr(pathItem['summary']);
  const deprecated = operation['deprecated'] === true;
  const title = titleFor(summary, toolName);
  return {
    toolName,
    operationId: stringOr(operation['operationId']),
    method,
    pathTemplate,
    title,
    description: describeOperation({
      toolName,
      summary,
      description: stringOr(operation['description']) ?? stringOr(pathItem['description']),
      deprecated,
      scopeAlternatives: alternatives,
      requiredScopes,
      anonymousAccess,
    }),
    tags,
    parameters: input.parameters,
    body: input.body,
    scopeAlternatives: alternatives,
    requiredScopes,
    ...(anonymousAccess ? { anonymousAccess: true } : {}),
    toolset,
    inputSchema: input.inputSchema,
    outputSchema: buildOutputSchema(recordOr(operation['responses']), context.root),
    annotations: annotationsFor(method, title),
    deprecated,
  };
}
