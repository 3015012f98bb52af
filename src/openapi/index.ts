/**
 * The OpenAPI part: the school's document in, a catalogue of operations out. It knows nothing of
 * OAuth, MCP or how requests are sent.
 */
export type { JsonSchema, Operation, OperationBody, OperationParameter, ToolAnnotations } from './operation.js';
export { documentTarget, loadDocument } from './load-document.js';
export { parseDocumentText, type ApiDocument, type OpenApiDocument } from './parse-document.js';
export { buildCatalogue, type ToolCatalogue } from './catalogue.js';
export { MAX_LISTED_SCHEMA_BYTES, fitListedSchemas } from './catalogue-budget.js';
export { MAX_TOOL_SCHEMA_BYTES } from './schema-budget.js';
export { withSingleTypes } from './single-types.js';
export { shownSchema } from './shown-schema.js';
export { toolsetSummary, type GroupingSource } from './grouping.js';
export { selectOperations } from './select-operations.js';
export { nearOperations, searchOperations, unknownWords } from './search.js';
export { resolveApiBase } from './server-base.js';
export { TOOL_NAME_PATTERN } from './tool-names.js';
export { consentScopeFacts, enablesChange, scopeRoles } from './scope-roles.js';
export { PROJECTION_ARGUMENT, bridgeProjects } from './field-projection.js';
export { loadCatalogue, type LoadedCatalogue } from './load-catalogue.js';
