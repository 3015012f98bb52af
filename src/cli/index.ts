export { formatStatus, runLogin, runLogout, runStatus } from './auth-commands.js';
export {
  buildToolsReport,
  estimateTokens,
  formatToolsReport,
  type ToolsReport,
  type ToolsReportInput,
} from './tools-report.js';
export { formatStoreReport, storeCommandAnswer, type StoreReportInput } from './store-report.js';
