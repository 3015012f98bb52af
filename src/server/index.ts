export type { AccountService, AccountStatus } from './account.js';
export { SIGN_OUT_TOOL, WHO_AM_I_TOOL } from './account-tools.js';
export {
  CONSENT_INPUT_KEY,
  createConsentCaller,
  createConsentStateCodec,
  createStepUpBudget,
  MAX_STEP_UPS,
  type ClientConnection,
  type ConsentBroker,
  type ConsentCallerOptions,
  type ConsentOutcome,
  type ConsentStateCodec,
  type LeavingReason,
  type PendingConsent,
  type StepUpBudget,
} from './consent/index.js';
export { CALL_TOOL, DESCRIBE_TOOL, SEARCH_TOOL } from './discovery-tools.js';
export { createSchoolServerFactory, type SchoolServerFactory, type SchoolServerOptions } from './create-server.js';
export { listServerTools } from './list-tools.js';
export { serverInstructions } from './instructions.js';
export type { OperationCaller, OperationResult } from './operation-caller.js';
export { TOOLSET_META_KEY } from './operation-tools.js';
export { DEFAULT_TOOLSETS, DIRECT_TOOL_BUDGET, planTools, type ToolPlan, type ToolsetChoice } from './tool-plan.js';
