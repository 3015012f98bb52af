export { formatStatus, runLogin, runLogout, runStatus, type LoginOptions } from './auth-commands.js';
export type { LineWriter } from './line-writer.js';
export { buildToolsReport, estimateTokens, formatToolsReport, TOKEN_COUNT, type ToolsReport, type ToolsReportInput } from './tools-report.js';
