/**
 * The OpenAPI part: the school's document in, a catalogue of operations out. It knows nothing of
 * OAuth, MCP or how requests are sent.
 */
export type { JsonSchema, Operation, OperationBody, OperationParameter, ToolAnnotations } from './operation.js';
export { loadDocument } from './load-document.js';
export { parseDocumentText } from './parse-document.js';
export { buildCatalogue, type ToolCatalogue } from './catalogue.js';
export { fitListedSchemas } from './catalogue-budget.js';
export { withSingleTypes } from './single-types.js';
export { shownSchema } from './shown-schema.js';
export { toolsetSummary } from './grouping.js';
export { selectOperations } from './select-operations.js';
export { nearOperations, searchOperations, unknownWords } from './search.js';
export { resolveApiBase } from './server-base.js';
export { consentScopeFacts, scopeRoles } from './scope-roles.js';
export { PROJECTION_ARGUMENT, bridgeProjects } from './field-projection.js';
export { loadCatalogue, type LoadedCatalogue } from './load-catalogue.js';
