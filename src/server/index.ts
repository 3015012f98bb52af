export type { AccountService, AccountStatus } from './account.js';
export { SIGN_OUT_TOOL, WHO_AM_I_TOOL } from './account-tools.js';
export { clientConnectionOf, type ClientConnection, type ProtocolEra } from './client-connection.js';
export { CALL_TOOL, DESCRIBE_TOOL, SEARCH_TOOL } from './discovery-tools.js';
export { createSchoolServerFactory, type SchoolServerFactory, type SchoolServerOptions } from './create-server.js';
export { serverInstructions } from './instructions.js';
export type { OperationCaller, OperationResult } from './operation-caller.js';
export { TOOLSET_META_KEY } from './operation-tools.js';
export { DEFAULT_TOOLSETS, DIRECT_TOOL_BUDGET, planTools, type ToolPlan, type ToolsetChoice } from './tool-plan.js';
