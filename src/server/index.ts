export type { AccountService } from './account.js';
export { SIGN_OUT_TOOL, WHO_AM_I_TOOL } from './account-tools.js';
export { storeOutageResult } from './store-outage-result.js';
export type { ClientConnection, ProtocolEra } from './client-connection.js';
export { CALL_TOOL, DESCRIBE_TOOL, SEARCH_TOOL } from './discovery-tools.js';
export { createSchoolServerFactory, type SchoolServerFactory, type SchoolServerOptions } from './create-server.js';
export { createLogRelay, type LogRelay } from './log-relay.js';
export { createRecoveringServerFactory } from './recovering-server.js';
export { SCHOOL_STATUS_TOOL, type SchoolOutage } from './school-outage.js';
export { listServerTools } from './list-tools.js';
export { serverInstructions } from './instructions.js';
export type { OperationCaller, OperationResult } from './operation-caller.js';
export {
  DEFAULT_TOOLS,
  DEFAULT_TOOLSETS,
  DIRECT_TOOL_BUDGET,
  planTools,
  type ToolPlan,
  type ToolsetChoice,
} from './tool-plan.js';
