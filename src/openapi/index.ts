/**
 * The OpenAPI part: the school's document in, a catalogue of operations out. It knows nothing of
 * OAuth, MCP or how requests are sent.
 */
export type {
  FileArgument,
  HttpMethod,
  JsonSchema,
  Operation,
  OperationBody,
  OperationParameter,
  ParameterLocation,
  ToolAnnotations,
} from './operation.js';
export type { OpenApiErrorCode } from './openapi-error.js';
export {
  DEFAULT_DOCUMENT_TIMEOUT_MS,
  documentTarget,
  loadDocument,
  type DocumentSource,
  type LoadDocumentOptions,
  type LoadedDocument,
} from './load-document.js';
export { MAX_DOCUMENT_BYTES, parseDocumentText, type ApiDocument, type OpenApiDocument, type ParsedDocument, type Swagger2Document } from './parse-document.js';
export { DEFAULT_MAX_OPERATIONS, buildCatalog, type CatalogOptions, type ToolCatalog } from './catalog.js';
export { MAX_LISTED_SCHEMA_BYTES, fitListedSchemas, type BudgetedTools } from './catalogue-budget.js';
export { MAX_DOCUMENT_DEPTH } from './document-depth.js';
export { MAX_TOOL_SCHEMA_BYTES } from './schema-converter.js';
export { toolsetSummary, type GroupingSource, type ToolsetSummary } from './grouping.js';
export { selectOperations, type OperationSelection } from './select-operations.js';
export { DEFAULT_SEARCH_LIMIT, searchOperations, type SearchResult } from './search.js';
export { resolveApiBase, type ApiBase } from './server-base.js';
export { MAX_TOOL_NAME_LENGTH, TOOL_NAME_PATTERN } from './tool-names.js';
export { PUBLIC_TOOLSET, scopeGroup } from './toolsets.js';
export { consentScopeFacts, enablesChange, scopeRoles, type ConsentScopeFacts, type ScopeRoles } from './scope-roles.js';
export { FILE_ARGUMENT_SCHEMA } from './request-body.js';
export { PROJECTION_ARGUMENT, bridgeProjects } from './field-projection.js';
